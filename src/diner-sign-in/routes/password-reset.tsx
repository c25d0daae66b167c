// Password reset by email: /password-reset asks for a link, /password-reset/set
// is the link's page. The rules live in src/auth/password-reset.ts; CSRF is checked for every form
// by the web app's middleware (src/auth/csrf.ts), signed out included.
import { type Context, Hono } from 'hono'
import { z } from 'zod'
import { EVERY_ACCESS_KIND, revokeAccess } from '../../access/revoke-access'
import { passwordResetMail } from '../../account-mail/password-reset-mail'
import { rememberDevice } from '../../auth/known-device'
import { PASSWORD_MIN_LENGTH } from '../../auth/password'
import { completePasswordReset, RESET_ENDED_CREDENTIALS, requestPasswordReset, userOfResetToken } from '../../auth/password-reset'
import { endSession } from '../../auth/session'
import { clientAddress, tryAgainIn } from '../../html/client-address'
import { renderPage, type WebEnv } from '../../html/render'
import { depsOf } from '../../runtime/deps'
import { type LocalOutboxCookie, rememberedLocalMail, rememberLocalMail } from '../local-outbox'
import { ForgotPasswordPage, NewResetLinkPage, ResetSentPage, SetPasswordPage } from '../pages/password-reset'

/** Where sign-in sends the diner after a reset; its page says what happened (routes/auth.tsx). */
const AFTER_RESET = '/signin?reset=1'
export const AFTER_RESET_NOTICE = `Your new password is set. ${RESET_ENDED_CREDENTIALS} Sign in with the new password: you can make new tokens, connect assistants, pair a device and make a calendar feed at once.`
const LINK_NOT_VALID = 'It was used already, has expired or is not complete: a reset link works once, for 30 minutes.'

/** A link that no longer works offers a new one on the same page. */
const newLinkPage = (c: Context<WebEnv>) =>
  renderPage(c, 'This link no longer works', <NewResetLinkPage csrfToken={c.get('csrfToken')} message={LINK_NOT_VALID} />, 422)

const LOCAL_RESET: LocalOutboxCookie = { name: 'tw_reset', path: '/password-reset', purpose: 'local-password-reset' }

const emailForm = z.object({
  email: z.string().trim().toLowerCase().max(320, 'That email is too long.').pipe(z.email('Enter a valid email address.')),
})
const newPasswordForm = z.object({
  t: z.string().max(512).default(''),
  password: z
    .string()
    .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters.`)
    .max(1024, 'Use at most 1024 characters.'),
})

export const passwordResetRoutes = new Hono<WebEnv>()

passwordResetRoutes.get('/password-reset', (c) =>
  renderPage(c, 'Reset your password', <ForgotPasswordPage csrfToken={c.get('csrfToken')} />),
)

passwordResetRoutes.post('/password-reset', async (c) => {
  const body = await c.req.parseBody()
  const parsed = emailForm.safeParse(body)
  const typed = typeof body.email === 'string' ? body.email.slice(0, 320) : ''
  if (!parsed.success) {
    const error = parsed.error.issues[0]?.message ?? 'Enter a valid email address.'
    return renderPage(c, 'Reset your password', <ForgotPasswordPage csrfToken={c.get('csrfToken')} email={typed} error={error} />, 422)
  }
  const deps = depsOf(c.env, c.req.url)
  const now = Date.now()
  const result = await requestPasswordReset(
    deps.db,
    { email: parsed.data.email, address: clientAddress(c), now },
    passwordResetMail(deps),
    (work) => c.executionCtx.waitUntil(work),
  )
  if (!result.ok) {
    const error = tryAgainIn(result.retryInMinutes, 'reset requests from your network')
    return renderPage(c, 'Reset your password', <ForgotPasswordPage csrfToken={c.get('csrfToken')} email={typed} error={error} />, 429)
  }
  await rememberLocalMail(c, LOCAL_RESET, parsed.data.email, now)
  return c.redirect('/password-reset/sent', 303)
})

passwordResetRoutes.get('/password-reset/sent', async (c) =>
  renderPage(c, 'Check your inbox', <ResetSentPage localMail={await rememberedLocalMail(c, LOCAL_RESET)} />),
)

passwordResetRoutes.get('/password-reset/set', async (c) => {
  const token = c.req.query('t') ?? ''
  const user = await userOfResetToken(depsOf(c.env, c.req.url).db, c.env.PLATFORM_TOKEN_KEY, token, Date.now())
  if (!user) return newLinkPage(c)
  return renderPage(c, 'Choose a new password', <SetPasswordPage csrfToken={c.get('csrfToken')} token={token} email={user.email} />)
})

passwordResetRoutes.post('/password-reset/set', async (c) => {
  const deps = depsOf(c.env, c.req.url)
  const body = await c.req.parseBody()
  const parsed = newPasswordForm.safeParse(body)
  if (!parsed.success) {
    const token = typeof body.t === 'string' ? body.t.slice(0, 512) : ''
    const user = await userOfResetToken(deps.db, c.env.PLATFORM_TOKEN_KEY, token, Date.now())
    if (!user) return newLinkPage(c)
    const error = parsed.error.issues.find((issue) => issue.path[0] === 'password')?.message
    const page = <SetPasswordPage csrfToken={c.get('csrfToken')} token={token} email={user.email} error={error} />
    return renderPage(c, 'Choose a new password', page, 422)
  }
  const result = await completePasswordReset(
    deps.db,
    { token: parsed.data.t, password: parsed.data.password, address: clientAddress(c), now: Date.now(), pepper: c.env.PASSWORD_PEPPER },
    passwordResetMail(deps),
    (userId) => revokeAccess(deps, userId, EVERY_ACCESS_KIND),
  )
  if (!result.ok && result.reason === 'throttled') {
    const user = await userOfResetToken(deps.db, c.env.PLATFORM_TOKEN_KEY, parsed.data.t, Date.now())
    if (!user) return newLinkPage(c)
    const error = tryAgainIn(result.retryInMinutes, 'reset attempts from your network')
    const page = <SetPasswordPage csrfToken={c.get('csrfToken')} token={parsed.data.t} email={user.email} error={error} />
    return renderPage(c, 'Choose a new password', page, 429)
  }
  if (!result.ok) return newLinkPage(c)
  // Every session of the account is gone already; this browser's cookie goes too. The browser
  // that proved it reads the account's mail is its owner's: a known device.
  await endSession(c)
  await rememberDevice(c, result.email)
  return c.redirect(AFTER_RESET, 303)
})
