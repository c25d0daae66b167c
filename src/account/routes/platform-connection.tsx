// The settings page's platform connection: connect by a code sent by text message (its steps on
// pages of their own) or by password (the password and the code are used once, never stored or
// echoed), from Tablewatch's servers or through the user's paired device, and disconnect (open
// requests become revoked). The sign-in under way is kept server-side (executors/platform-sign-in-pending.ts).
import { type Context, Hono } from 'hono'
import { z } from 'zod'
import { currentUser, requireSession } from '../../auth/session'
import { AppError } from '../../errors'
import { disconnectPlatform, signInError } from '../../executors/connection'
import {
  answerSignInChallenge,
  cancelSignIn,
  checkSignInCode,
  type SignInStep,
  sendSignInCode,
  signInUnderWay,
  signInWithPassword,
} from '../../executors/platform-sign-in'
import type { SignInVia } from '../../executors/platform-sign-in-pending'
import { signInWords } from '../../executors/platform-sign-in-words'
import { renderPage, type WebEnv } from '../../html/render'
import { depsOf } from '../../runtime/deps'
import { ChallengeStepPage, CodeStepPage, type CodeStepProps } from '../pages/platform-sign-in'
import { showSettings } from './settings'

const connectForm = z.object({
  platform_email: z.string().trim().min(1, 'Enter the email of your platform account').max(254, 'That email is too long'),
  platform_password: z.string().min(1, 'Enter the password of your platform account').max(200, 'That password is too long'),
  accept_risk: z.literal('on', 'Confirm that you accept the risk to connect'),
})

const codeForm = z.object({
  code: z.string().trim().min(1, 'Type the code from the text message').max(12, 'That code is too long'),
  accept_risk: z.literal('on', 'Confirm that you accept the risk to connect'),
})

const emailForm = z.object({
  email: z.string().trim().min(3, 'Type the email address of the platform account').max(254, 'That email is too long'),
})

/** Which button was pressed: the paired device, or (the default) our servers. */
const viaOf = (body: Record<string, unknown>): SignInVia => (body.via === 'device' ? 'device' : 'cloud')

const text = (body: Record<string, unknown>, name: string, max: number) =>
  typeof body[name] === 'string' ? body[name].trim().slice(0, max) : ''

export const platformConnectionRoutes = new Hono<WebEnv>()
platformConnectionRoutes.use('/settings/platform/*', requireSession())

platformConnectionRoutes.post('/settings/platform/connect', async (c) => {
  const body = await c.req.parseBody()
  const email = text(body, 'platform_email', 254)
  const parsed = connectForm.safeParse(body)
  if (!parsed.success) {
    const errors = z.flattenError(parsed.error).fieldErrors
    const fieldErrors = { email: errors.platform_email?.[0], password: errors.platform_password?.[0], acceptRisk: errors.accept_risk?.[0] }
    return showSettings(c, { connectForm: { email, errors: fieldErrors } }, 422)
  }
  const step = await signInWithPassword(depsOf(c.env, c.req.url), currentUser(c).id, {
    email: parsed.data.platform_email,
    password: parsed.data.platform_password,
    via: viaOf(body),
  })
  if (step.kind === 'connected') return c.redirect('/settings?done=connected', 303)
  return showSettings(c, { connectForm: { email, errors: {} }, signInProblem: problemOf(step) }, statusOf(c, step))
})

platformConnectionRoutes.post('/settings/platform/code', async (c) => {
  const body = await c.req.parseBody()
  const mobileNumber = text(body, 'mobile_number', 40)
  if (mobileNumber === '')
    return showSettings(c, { codeForm: { mobileNumber, error: 'Type the mobile number of your platform account' } }, 422)
  const step = await sendSignInCode(depsOf(c.env, c.req.url), currentUser(c).id, { mobileNumber, via: viaOf(body) })
  if (step.kind === 'code_sent') return c.redirect('/settings/platform/code', 303)
  if (step.kind === 'problem' && step.problem.kind === 'invalid_number') {
    return showSettings(c, { codeForm: { mobileNumber, error: signInWords(step.problem).next } }, 422)
  }
  return showSettings(c, { codeForm: { mobileNumber }, signInProblem: problemOf(step) }, statusOf(c, step))
})

platformConnectionRoutes.get('/settings/platform/code', async (c) => {
  const underWay = await signInUnderWay(depsOf(c.env, c.req.url), currentUser(c).id)
  if (!underWay) return c.redirect('/settings', 303)
  return showStep(c, { step: underWay.step, numberHint: underWay.numberHint, via: underWay.via })
})

platformConnectionRoutes.post('/settings/platform/code/check', async (c) => {
  const deps = depsOf(c.env, c.req.url)
  const user = currentUser(c)
  const underWay = await signInUnderWay(deps, user.id)
  if (!underWay) return showSettings(c, { signInProblem: problemOf({ kind: 'problem', problem: { kind: 'expired' }, via: 'cloud' }) }, 422)
  const parsed = codeForm.safeParse(await c.req.parseBody())
  if (!parsed.success) {
    const errors = z.flattenError(parsed.error).fieldErrors
    return showStep(c, { ...underWay, errors: { code: errors.code?.[0], acceptRisk: errors.accept_risk?.[0] } }, 422)
  }
  return after(c, await checkSignInCode(deps, user.id, { code: parsed.data.code }))
})

platformConnectionRoutes.post('/settings/platform/code/email', async (c) => {
  const deps = depsOf(c.env, c.req.url)
  const user = currentUser(c)
  const underWay = await signInUnderWay(deps, user.id)
  if (!underWay) return showSettings(c, { signInProblem: problemOf({ kind: 'problem', problem: { kind: 'expired' }, via: 'cloud' }) }, 422)
  const parsed = emailForm.safeParse(await c.req.parseBody())
  if (!parsed.success) return showStep(c, { ...underWay, errors: { email: z.flattenError(parsed.error).fieldErrors.email?.[0] } }, 422)
  return after(c, await answerSignInChallenge(deps, user.id, { email: parsed.data.email }))
})

platformConnectionRoutes.post('/settings/platform/code/cancel', async (c) => {
  await cancelSignIn(depsOf(c.env, c.req.url), currentUser(c).id)
  return c.redirect('/settings#platform-heading', 303)
})

platformConnectionRoutes.post('/settings/platform/disconnect', async (c) => {
  await disconnectPlatform(depsOf(c.env, c.req.url), currentUser(c).id)
  return c.redirect('/settings?done=disconnected', 303)
})

/** Where a code or email step leads: connected, the next step, the same step again, or Settings when the sign-in ended. */
async function after(c: Context<WebEnv>, step: SignInStep) {
  if (step.kind === 'connected') return c.redirect('/settings?done=connected', 303)
  if (step.kind === 'challenge' || step.kind === 'code_sent') return c.redirect('/settings/platform/code', 303)
  const underWay = await signInUnderWay(depsOf(c.env, c.req.url), currentUser(c).id)
  if (underWay) return showStep(c, { ...underWay, problem: problemOf(step) }, statusOf(c, step))
  return showSettings(c, { signInProblem: problemOf(step) }, statusOf(c, step))
}

function showStep(
  c: Context<WebEnv>,
  props: Omit<CodeStepProps, 'csrfToken'> & { step: 'code_sent' | 'challenge' },
  status: 200 | 422 | 429 | 503 = 200,
) {
  const { step, ...rest } = props
  const page = { csrfToken: c.get('csrfToken'), ...rest }
  return step === 'challenge'
    ? renderPage(c, 'Connect: one more step', <ChallengeStepPage {...page} />, status)
    : renderPage(c, 'Connect: type the code', <CodeStepPage {...page} />, status)
}

function problemOf(step: SignInStep) {
  if (step.kind !== 'problem') throw new AppError('internal', 'Expected a sign-in problem.')
  return { words: signInWords(step.problem), via: step.via }
}

/**
 * The page's status for a sign-in problem, the JSON API's own (signInError): a diner's limit is
 * 429 with its Retry-After on both, a 5xx only when the platform or the service failed.
 */
function statusOf(c: Context<WebEnv>, step: SignInStep): 422 | 429 | 503 {
  if (step.kind !== 'problem') return 422
  const error = signInError(step.problem)
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value)
  return error.status === 429 ? 429 : error.status >= 500 ? 503 : 422
}
