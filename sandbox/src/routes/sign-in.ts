// The platform's sign-in endpoints (docs/platform.md, "Sign-in", "Sessions and refresh"):
//   POST /4/auth/password, /3/auth/password (removable: "no longer exists", [idx 57928723907])
//   POST /4/auth/mobile (send a code; with `code`, check it), POST /4/auth/challenge
//   POST /3/auth/refresh (the refresh token as the cookie or the form field)
// Where the public evidence gives an answer's words, they are used verbatim; the rest are the
// sandbox's guesses, each marked, and the client reads them tolerantly (src/platform/sign-in-refusals.ts).
import { Hono } from 'hono'
import type { SandboxEnv } from '../env'
import type { CodeRefusal } from '../store/codes'
import type { IssuedTokens } from '../store/tokens'
import { codeSessionJson, loginJson } from '../wire'
import { answer, type Ctx, endpoint, formOf, unauthorized } from './common'

export const signInRoutes = new Hono<{ Bindings: SandboxEnv }>()

/** The refresh token as a cookie (`Cierge:resy/auth.go`). */
const REFRESH_COOKIE = 'production_refresh_token'

const E164 = /^\+[1-9]\d{7,14}$/

/**
 * A sign-in answer's refresh token: the cookie, written raw (the token is base64 with `+`, `/`,
 * `=`, store/schema.ts, and the platform sends it as is: docs/platform.md, "Sessions and refresh"),
 * or the body field.
 */
function withRefresh(c: Ctx, tokens: IssuedTokens, body: Record<string, unknown>): Response {
  const refresh = tokens.refresh
  if (refresh?.via === 'body') return c.json({ ...body, refresh_token: refresh.token })
  if (refresh?.via === 'cookie') {
    const maxAge = Math.max(0, Math.floor((refresh.expiresAt - Date.now()) / 1000))
    c.header('Set-Cookie', `${REFRESH_COOKIE}=${refresh.token}; Max-Age=${maxAge}; Path=/; HttpOnly; Secure; SameSite=None`, {
      append: true,
    })
  }
  return c.json(body)
}

/**
 * The refresh token as sent: the cookie's value exactly (never URL-decoded: a client that decoded
 * or re-encoded what Set-Cookie gave, `%2B` for `+`, sends a token the platform never issued), or
 * the form field ([idx 57928723907] posts `refresh_token`).
 */
function refreshTokenSent(c: Ctx, form: Record<string, string>): string | null {
  for (const part of (c.req.header('Cookie') ?? '').split(';')) {
    const at = part.indexOf('=')
    if (at > 0 && part.slice(0, at).trim() === REFRESH_COOKIE) return part.slice(at + 1).trim()
  }
  return form.refresh_token || null
}

/**
 * The refusals of the code sign-in. Verbatim where public: an unknown challenge is
 * `{"challenge_id": "An invalid challenge_id was provided"}` ([idx 57928723907]). The rest are
 * guesses in the platform's manner (a field named with its message, [idx 59086060355] reads
 * `data.code`): statuses 400 and 429, and their words.
 */
function codeRefusal(why: CodeRefusal): Response {
  switch (why) {
    case 'captcha':
      return answer(400, { status: 400, message: 'Please complete the captcha', data: { captcha_token: 'A captcha_token is required' } })
    case 'too_many_sends':
      return answer(429, { status: 429, message: 'Too many codes requested. Try again later.' })
    case 'too_many_tries':
      return answer(429, { status: 429, message: 'Too many attempts. Request a new code.' })
    case 'no_code':
    case 'wrong_code':
      return answer(400, { status: 400, message: 'Invalid code', data: { code: 'The code you entered is incorrect' } })
    case 'expired':
      return answer(400, { status: 400, message: 'Code expired', data: { code: 'This code has expired. Request a new one.' } })
    case 'no_challenge':
      return answer(400, { challenge_id: 'An invalid challenge_id was provided' })
    case 'wrong_email':
      return answer(400, { status: 400, message: 'Invalid email', data: { em_address: 'The email does not match this account' } })
  }
}

function password(path: '/4/auth/password' | '/3/auth/password') {
  return endpoint('login', async (c, world) => {
    // A path the world removed answers like any unknown path.
    if (!(await world.signInSettings()).passwordPaths.includes(path)) return answer(404, { status: 404, message: 'Not Found' })
    const form = await formOf(c)
    const got = await world.login(form.email ?? '', form.password ?? '')
    if (got.kind === 'ok') return withRefresh(c, got.tokens, loginJson(got.account, got.tokens.token))
    // An account that never set a password: like a wrong password (nothing public says otherwise),
    // or, when the world is set so, in words naming it (a guess, to exercise `no_password`).
    if (got.kind === 'no_password' && (await world.signInSettings()).noPasswordSaysSo)
      return answer(419, { status: 419, message: 'This account has no password. Sign in with a code sent to your phone.' })
    return unauthorized(c)
  })
}

signInRoutes.post('/4/auth/password', password('/4/auth/password'))
signInRoutes.post('/3/auth/password', password('/3/auth/password'))

signInRoutes.post(
  '/4/auth/mobile',
  endpoint('mobile', async (c, world) => {
    const form = await formOf(c)
    const mobileNumber = form.mobile_number ?? ''
    const deviceToken = form.device_token ?? ''
    if (!E164.test(mobileNumber))
      return answer(400, { status: 400, message: 'Invalid mobile number', data: { mobile_number: 'Please enter a valid mobile number' } })
    if (form.code === undefined) {
      const sent = await world.sendCode({ mobileNumber, deviceToken, captchaToken: form.captcha_token || null })
      // [idx 59086060355] reads `sent`.
      return sent.kind === 'sent' ? c.json({ sent: true }) : codeRefusal(sent.why)
    }
    const got = await world.checkCode({ mobileNumber, code: form.code, deviceToken })
    switch (got.kind) {
      case 'signed_in':
        return withRefresh(c, got.tokens, codeSessionJson(got.tokens.token))
      case 'challenge':
        // [idx 57928723907]: challenge.challenge_id and properties[].name; [idx 59086060355]:
        // mobile_claim.claim_token, challenge.first_name, message, properties[].type/message.
        return c.json({
          mobile_claim: { claim_token: got.claimToken },
          challenge: {
            challenge_id: got.challengeId,
            first_name: got.firstName,
            message: got.firstName ? `Hey ${got.firstName}, is that you?` : 'Confirm your account',
            properties: [{ name: 'em_address', type: 'email', message: 'Enter the email on your account' }],
          },
        })
      case 'refused':
        return codeRefusal(got.why)
    }
  }),
)

signInRoutes.post(
  '/4/auth/challenge',
  endpoint('challenge', async (c, world) => {
    const form = await formOf(c)
    const got = await world.answerChallenge({
      challengeId: form.challenge_id ?? '',
      email: form.em_address ?? '',
      deviceToken: form.device_token ?? '',
      claimToken: form.claim_token || null,
    })
    return got.kind === 'signed_in' ? withRefresh(c, got.tokens, codeSessionJson(got.tokens.token)) : codeRefusal(got.why)
  }),
)

signInRoutes.post(
  '/3/auth/refresh',
  endpoint('refresh', async (c, world) => {
    const sent = refreshTokenSent(c, await formOf(c))
    const tokens = sent ? await world.refresh(sent) : null
    if (!tokens) return unauthorized(c)
    return withRefresh(c, tokens, { token: tokens.token })
  }),
)
