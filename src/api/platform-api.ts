// JSON endpoints for the platform connection, behind the user's web session (not tokens:
// the user, not an assistant, connects the platform). The settings page uses the same use cases:
// a code by text message (/code, /code/check, /code/email) or a password (/connect), made by the
// service or, with `via: "device"`, by the user's paired device.
import { Hono } from 'hono'
import { z } from 'zod'
import { csrfProtection } from '../auth/csrf'
import { currentUser, sessionUser } from '../auth/session'
import { AppError, errorResponse } from '../errors'
import { connectionStatus, connectPlatform, disconnectPlatform, RISK_NOTICE, signInError } from '../executors/connection'
import { platformAccessOf } from '../executors/platform-access'
import { answerSignInChallenge, cancelSignIn, checkSignInCode, type SignInStep, sendSignInCode } from '../executors/platform-sign-in'
import { type Deps, depsOf } from '../runtime/deps'

const Via = z.enum(['cloud', 'device']).default('cloud')

const ConnectBody = z.strictObject({
  email: z.string().min(3).max(254),
  password: z.string().min(1).max(200),
  acknowledge_risk: z.boolean(),
  via: Via,
})
const CodeBody = z.strictObject({ mobile_number: z.string().min(1).max(40), via: Via })
const CheckBody = z.strictObject({ code: z.string().min(1).max(12), acknowledge_risk: z.boolean() })
const EmailBody = z.strictObject({ email: z.string().min(3).max(254) })

async function bodyOf<T extends z.ZodType>(request: Request, schema: T, hint: string): Promise<z.infer<T>> {
  const parsed = schema.safeParse(await request.json().catch(() => null))
  if (!parsed.success) throw new AppError('invalid_request', hint)
  return parsed.data
}

/** A step's answer: where the sign-in stands, or the problem as the contract's error (in the page's words). */
async function answerOf(deps: Deps, userId: string, step: SignInStep) {
  switch (step.kind) {
    case 'code_sent':
      return { step: 'code_sent', number_hint: step.numberHint, via: step.via }
    case 'challenge':
      return { step: 'email_needed', via: step.via }
    case 'connected':
      return { step: 'connected', via: step.via, ...(await connectionStatus(deps, userId)) }
    case 'problem':
      throw signInError(step.problem)
  }
}

export const platformApi = new Hono<{ Bindings: Cloudflare.Env }>()
  .use('*', sessionUser())
  .use('*', csrfProtection({ onRefused: () => errorResponse(new AppError('csrf_failed', 'Reload the page and try again.')) }))
  .use('*', async (c, next) => {
    if (!c.get('user')) throw new AppError('unauthorized', 'Sign in first.')
    return next()
  })
  .get('/', async (c) => {
    const deps = depsOf(c.env)
    const userId = currentUser(c).id
    const [status, access] = await Promise.all([connectionStatus(deps, userId), platformAccessOf(deps, userId)])
    return c.json({
      ...status,
      refused_from_cloud: access.refused.map((r) => ({ call: r.call, last_at: new Date(r.lastAt).toISOString() })),
      sign_in_under_way: access.underWay
        ? { step: access.underWay.step, via: access.underWay.via, number_hint: access.underWay.numberHint }
        : null,
      risk_notice: RISK_NOTICE,
      csrf_token: c.get('csrfToken'),
    })
  })
  .post('/connect', async (c) => {
    const { email, password, acknowledge_risk, via } = await bodyOf(c.req.raw, ConnectBody, 'Send email, password and acknowledge_risk.')
    const status = await connectPlatform(depsOf(c.env), currentUser(c).id, {
      email,
      password,
      acknowledgedRisk: acknowledge_risk,
      via,
    })
    return c.json(status)
  })
  .post('/code', async (c) => {
    const { mobile_number, via } = await bodyOf(c.req.raw, CodeBody, 'Send mobile_number (and via: cloud or device).')
    const deps = depsOf(c.env)
    const userId = currentUser(c).id
    return c.json(await answerOf(deps, userId, await sendSignInCode(deps, userId, { mobileNumber: mobile_number, via })))
  })
  .post('/code/check', async (c) => {
    const { code, acknowledge_risk } = await bodyOf(c.req.raw, CheckBody, 'Send code and acknowledge_risk.')
    if (!acknowledge_risk) throw new AppError('risk_not_acknowledged', `Please confirm that you understand the risk first. ${RISK_NOTICE}`)
    const deps = depsOf(c.env)
    const userId = currentUser(c).id
    return c.json(await answerOf(deps, userId, await checkSignInCode(deps, userId, { code })))
  })
  .post('/code/email', async (c) => {
    const { email } = await bodyOf(c.req.raw, EmailBody, 'Send the email of the platform account.')
    const deps = depsOf(c.env)
    const userId = currentUser(c).id
    return c.json(await answerOf(deps, userId, await answerSignInChallenge(deps, userId, { email })))
  })
  .post('/code/cancel', async (c) => {
    await cancelSignIn(depsOf(c.env), currentUser(c).id)
    return c.json({ step: 'none' })
  })
  .post('/disconnect', async (c) => {
    const deps = depsOf(c.env)
    await disconnectPlatform(deps, currentUser(c).id)
    return c.json(await connectionStatus(deps, currentUser(c).id))
  })
