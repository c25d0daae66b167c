// Which refusal a sign-in answer is, in words a page can explain (docs/platform.md, "Sign-in").
// What is public: a wrong password is a 419 (`21Bruce/resolved-bot:api/resy/api.go`; Cierge maps
// every 419 to "unauthorized"); the platform answers a bad field with a JSON object naming the
// field (`{"challenge_id": "An invalid challenge_id was provided"}`, [idx 57928723907]; one client
// reads a refused code's reason from `data.code`, another the `message`, [idx 59086060355]); the
// web client may send a `captcha_token` to /4/auth/mobile, so the platform can ask for one
// ([idx 57928723907]). The statuses and words for a wrong or expired code, too many tries, and an
// account without a password are NOT public: the rules below are a guess, tolerant on purpose
// (docs/decisions/platform-account.md): they read the status and every message in the body.
// Pure.
import type { SignInRefusal } from './api'

/** The step of a sign-in an answer belongs to. */
export type SignInStep = 'password' | 'send_code' | 'check_code' | 'challenge'

/** Every string in the body (messages, field messages, nested `data`), lower case, for the word rules. */
function wordsOf(body: unknown, depth = 0): string {
  if (typeof body === 'string') return body.toLowerCase()
  if (depth > 3 || body === null || typeof body !== 'object') return ''
  const entries = Array.isArray(body) ? body.map((v) => ['', v] as const) : Object.entries(body)
  return entries.map(([key, value]) => `${key} ${wordsOf(value, depth + 1)}`).join(' ')
}

const CAPTCHA = /captcha/
const TOO_MANY = /too many|attempts? (?:exceeded|limit)|max(?:imum)? (?:number of )?(?:attempts|tries)|locked|try again later/
const EXPIRED = /expired|no longer valid|timed? ?out/
const NO_PASSWORD = /no password|password (?:is )?not set|never set|has_set_password|set a password|sign in with (?:a )?code/
const BAD_NUMBER = /mobile_number|phone|number/
const BAD_CHALLENGE = /challenge_id|challenge/
const BAD_EMAIL = /em_address|email|did not match|does not match/

/** A refusal a status says by itself: the credentials or the input were not accepted. */
const REFUSING = new Set([400, 401, 403, 404, 409, 410, 419, 422])

/**
 * The refusal this answer is, or null when it is none (a success, a 5xx, a block, a status that
 * says nothing about the diner's input: the caller maps those as failures).
 */
export function signInRefusalOf(step: SignInStep, status: number, body: unknown): SignInRefusal | null {
  if (status < 400 || status >= 500) return null
  const words = wordsOf(body)
  if (CAPTCHA.test(words)) return 'captcha_required'
  if (status === 429 || TOO_MANY.test(words)) return 'too_many_tries'
  if (!REFUSING.has(status)) return null
  switch (step) {
    case 'password':
      // /4 answering 404 is not a refusal: the caller falls back to /3.
      if (status === 404) return null
      return NO_PASSWORD.test(words) ? 'no_password' : 'wrong_password'
    case 'send_code':
      return BAD_NUMBER.test(words) || status === 400 || status === 422 ? 'invalid_number' : null
    case 'check_code':
      return EXPIRED.test(words) ? 'code_expired' : 'wrong_code'
    case 'challenge':
      // A challenge that is unknown or spent: the code sign-in starts again.
      if (EXPIRED.test(words) || (BAD_CHALLENGE.test(words) && !BAD_EMAIL.test(words))) return 'code_expired'
      return 'wrong_email'
  }
}
