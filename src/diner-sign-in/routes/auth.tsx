// Sign-up, sign-in and sign-out.
import { type Context, Hono } from 'hono'
import { z } from 'zod'
import { signUpMail } from '../../account-mail/sign-up-mail'
import { checkSignUpLink, confirmSignUp, signIn, signUp } from '../../auth/accounts'
import { knownDeviceOf, rememberDevice } from '../../auth/known-device'
import { PASSWORD_MIN_LENGTH } from '../../auth/password'
import { endSession, startSession } from '../../auth/session'
import { AppError } from '../../errors'
import { clientAddress, tryAgainIn } from '../../html/client-address'
import { errorPage } from '../../html/error-page'
import { safeNextPath } from '../../html/next-path'
import { renderPage, type WebEnv } from '../../html/render'
import { depsOf } from '../../runtime/deps'
import { type LocalOutboxCookie, rememberedLocalMail, rememberLocalMail } from '../local-outbox'
import { SignInPage, SignUpPage } from '../pages/sign-in'
import { ConfirmSignUpPage, SignUpSentPage } from '../pages/sign-up-sent'
import { signInReasonOf } from '../sign-in-reason'
import { AFTER_RESET_NOTICE } from './password-reset'

const GENERIC_SIGN_IN_ERROR = 'Email or password is incorrect.'
const SIGNED_UP_NOTICE = 'This email already has an account: sign in with its password.'
const SIGNED_OUT_EVERYWHERE = 'You are signed out everywhere: every browser has to sign in again.'

const signInForm = z.object({
  email: z.string().trim().max(320, 'That email is too long.').default(''),
  password: z.string().max(1024, 'That password is too long.').default(''),
})

const signUpForm = z.object({
  email: z.string().trim().toLowerCase().max(320, 'That email is too long').pipe(z.email('Enter a valid email address')),
  password: z.string().min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters`).max(1024, 'Use at most 1024 characters'),
})

export const authRoutes = new Hono<WebEnv>()

authRoutes.get('/signin', async (c) => {
  const next = safeNextPath(c.req.query('next'))
  if (c.get('user')) return c.redirect(next, 303)
  const notice =
    c.req.query('signed_up') === '1'
      ? SIGNED_UP_NOTICE
      : c.req.query('signed_out') === 'everywhere'
        ? SIGNED_OUT_EVERYWHERE
        : c.req.query('reset') === '1'
          ? AFTER_RESET_NOTICE
          : undefined
  return renderPage(
    c,
    'Sign in',
    <SignInPage
      csrfToken={c.get('csrfToken')}
      next={next}
      notice={notice}
      reason={await signInReasonOf(c.env.PLATFORM_TOKEN_KEY, next, Date.now())}
    />,
  )
})

authRoutes.post('/signin', async (c) => {
  const next = safeNextPath(c.req.query('next'))
  const body = await c.req.parseBody()
  const parsed = signInForm.safeParse(body)
  if (!parsed.success) {
    const error = parsed.error.issues[0]?.message ?? GENERIC_SIGN_IN_ERROR
    const email = typeof body.email === 'string' ? body.email.slice(0, 320) : ''
    return renderPage(
      c,
      'Sign in',
      <SignInPage
        csrfToken={c.get('csrfToken')}
        next={next}
        email={email}
        error={error}
        reason={await signInReasonOf(c.env.PLATFORM_TOKEN_KEY, next, Date.now())}
      />,
      422,
    )
  }
  const form = parsed.data
  const result = await signIn(depsOf(c.env).db, {
    email: form.email,
    password: form.password,
    address: clientAddress(c),
    device: await knownDeviceOf(c, form.email),
    now: Date.now(),
    pepper: c.env.PASSWORD_PEPPER,
  })
  if (result.ok) {
    await startSession(c, result.userId)
    await rememberDevice(c, form.email)
    return c.redirect(next, 303)
  }
  const error = result.reason === 'throttled' ? tryAgainIn(result.retryInMinutes) : GENERIC_SIGN_IN_ERROR
  const status = result.reason === 'throttled' ? 429 : 401
  return renderPage(
    c,
    'Sign in',
    <SignInPage
      csrfToken={c.get('csrfToken')}
      next={next}
      email={form.email}
      error={error}
      reason={await signInReasonOf(c.env.PLATFORM_TOKEN_KEY, next, Date.now())}
    />,
    status,
  )
})

authRoutes.get('/signup', (c) => {
  const next = safeNextPath(c.req.query('next'))
  if (c.get('user')) return c.redirect(next, 303)
  return renderPage(c, 'Create account', <SignUpPage csrfToken={c.get('csrfToken')} next={next} />)
})

authRoutes.post('/signup', async (c) => {
  const next = safeNextPath(c.req.query('next'))
  const body = await c.req.parseBody()
  const parsed = signUpForm.safeParse(body)
  if (!parsed.success) {
    const errors = z.flattenError(parsed.error).fieldErrors
    const email = typeof body.email === 'string' ? body.email.slice(0, 320) : ''
    const page = (
      <SignUpPage
        csrfToken={c.get('csrfToken')}
        next={next}
        email={email}
        errors={{ email: errors.email?.[0], password: errors.password?.[0] }}
      />
    )
    return renderPage(c, 'Create account', page, 422)
  }
  // Every address gets the same answer: "check your inbox" (docs/decisions/auth.md).
  const now = Date.now()
  const result = await signUp(
    depsOf(c.env).db,
    { email: parsed.data.email, password: parsed.data.password, address: clientAddress(c), now, pepper: c.env.PASSWORD_PEPPER },
    signUpMail(depsOf(c.env), next),
    (work) => c.executionCtx.waitUntil(work),
  )
  if (!result.ok) {
    const error = tryAgainIn(result.retryInMinutes, 'sign-ups from your network')
    return renderPage(
      c,
      'Create account',
      <SignUpPage csrfToken={c.get('csrfToken')} next={next} email={parsed.data.email} error={error} />,
      429,
    )
  }
  await rememberLocalMail(c, LOCAL_SIGN_UP, parsed.data.email, now)
  return c.redirect('/signup/sent', 303)
})

/** Local development shows the sign-up mail on "check your inbox" (src/diner-sign-in/local-outbox.ts). */
const LOCAL_SIGN_UP: LocalOutboxCookie = { name: 'tw_signup', path: '/signup', purpose: 'local-sign-up' }

authRoutes.get('/signup/sent', async (c) =>
  renderPage(c, 'Check your inbox', <SignUpSentPage localMail={await rememberedLocalMail(c, LOCAL_SIGN_UP)} />),
)

// The link in the mail: its GET only shows the button (mail scanners open links), the POST creates.
const SIGN_UP_LINK_NOT_VALID = 'This link is not valid or has expired (links work for 24 hours). Sign up again for a new one.'
const SIGN_UP_LINK_USED = 'This link was used already: the account exists. Sign in with its password.'

/** A sign-up link that cannot create the account says so, with the step that gets the user on. */
function signUpLinkRefused(c: Context<WebEnv>, why: 'invalid' | 'taken') {
  return why === 'taken'
    ? errorPage(c, new AppError('invalid_request', SIGN_UP_LINK_USED), { href: '/signin', label: 'Sign in' })
    : errorPage(c, new AppError('invalid_request', SIGN_UP_LINK_NOT_VALID), { href: '/signup', label: 'Sign up again' })
}

// The link is checked when its page opens (a GET that creates nothing), so a bad link says so
// before "Create my account"; the POST checks again and creates the account.
authRoutes.get('/signup/confirm', async (c) => {
  const token = c.req.query('t') ?? ''
  const link = await checkSignUpLink(depsOf(c.env).db, c.env.PLATFORM_TOKEN_KEY, token, Date.now())
  if (link !== 'ok') return signUpLinkRefused(c, link)
  return renderPage(
    c,
    'Finish creating your account',
    <ConfirmSignUpPage csrfToken={c.get('csrfToken')} token={token} next={safeNextPath(c.req.query('next'))} />,
  )
})

authRoutes.post('/signup/confirm', async (c) => {
  const body = await c.req.parseBody()
  const token = typeof body.t === 'string' ? body.t : ''
  const result = await confirmSignUp(depsOf(c.env).db, c.env.PLATFORM_TOKEN_KEY, token, Date.now())
  if (!result.ok && result.reason === 'taken') return c.redirect('/signin?signed_up=1', 303)
  if (!result.ok) return signUpLinkRefused(c, result.reason)
  await startSession(c, result.userId)
  // The browser that confirmed the account is its owner's: its sign-ins get their own budget.
  await rememberDevice(c, result.email)
  const next = safeNextPath(c.req.query('next'))
  return c.redirect(next === '/' ? '/?welcome=1' : next, 303)
})

authRoutes.post('/signout', async (c) => {
  await endSession(c)
  return c.redirect('/', 303)
})
