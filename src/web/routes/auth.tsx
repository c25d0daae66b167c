// Sign-up, sign-in and sign-out.
import { Hono } from 'hono'
import { z } from 'zod'
import { signIn, signUp } from '../../auth/accounts'
import { knownDeviceOf, rememberDevice } from '../../auth/known-device'
import { endSession, startSession } from '../../auth/session'
import { depsOf } from '../../requests/deps'
import { clientAddress, tryAgainIn } from '../client-address'
import { safeNextPath } from '../next-path'
import { PASSWORD_MIN_LENGTH, SignInPage, SignUpPage } from '../pages/sign-in'
import { renderPage, type WebEnv } from '../render'

const GENERIC_SIGN_IN_ERROR = 'Email or password is incorrect.'
const SIGNED_UP_NOTICE =
  'If this email already has an account, sign in with its password: we also sent a note to that address. Otherwise, check the email you typed.'
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

authRoutes.get('/signin', (c) => {
  const next = safeNextPath(c.req.query('next'))
  if (c.get('user')) return c.redirect(next, 303)
  const notice =
    c.req.query('signed_up') === '1' ? SIGNED_UP_NOTICE : c.req.query('signed_out') === 'everywhere' ? SIGNED_OUT_EVERYWHERE : undefined
  return renderPage(c, 'Sign in', <SignInPage csrfToken={c.get('csrfToken')} next={next} notice={notice} />)
})

authRoutes.post('/signin', async (c) => {
  const next = safeNextPath(c.req.query('next'))
  const body = await c.req.parseBody()
  const parsed = signInForm.safeParse(body)
  if (!parsed.success) {
    const error = parsed.error.issues[0]?.message ?? GENERIC_SIGN_IN_ERROR
    const email = typeof body.email === 'string' ? body.email.slice(0, 320) : ''
    return renderPage(c, 'Sign in', <SignInPage csrfToken={c.get('csrfToken')} next={next} email={email} error={error} />, 422)
  }
  const form = parsed.data
  const result = await signIn(depsOf(c.env, c.req.url).db, {
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
  return renderPage(c, 'Sign in', <SignInPage csrfToken={c.get('csrfToken')} next={next} email={form.email} error={error} />, status)
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
  // A new account is signed in at once (issue 16). A taken email changes nothing on that account:
  // the visitor is sent to sign in and the owner gets a note (docs/decisions.md, issue 16).
  const result = await signUp(
    depsOf(c.env, c.req.url).db,
    { email: parsed.data.email, password: parsed.data.password, address: clientAddress(c), now: Date.now(), pepper: c.env.PASSWORD_PEPPER },
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
  if (result.userId !== null) {
    await startSession(c, result.userId)
    return c.redirect(next === '/' ? '/?welcome=1' : next, 303)
  }
  const query = new URLSearchParams({ signed_up: '1', ...(next === '/' ? {} : { next }) })
  return c.redirect(`/signin?${query}`, 303)
})

authRoutes.post('/signout', async (c) => {
  await endSession(c)
  return c.redirect('/', 303)
})
