// Signing in to the platform and renewing the session, on the wire (docs/platform.md, "Sign-in",
// "Sessions and refresh"): the password on /4/auth/password (/3 only when /4 answers 404), the
// code by text message on /4/auth/mobile and its challenge on /4/auth/challenge, and the refresh
// on /3/auth/refresh. None is retried: each one mints or spends something (a token, a code).
// The CDN's cookies of every answer are kept in the session's jar, as a browser keeps them.
import type {
  Account,
  CdnCookies,
  CodeChallenge,
  CodeSender,
  CodeVerdict,
  Outcome,
  PlatformSession,
  RefreshCredentials,
  SignInOutcome,
  UserCredentials,
} from './api'
import { cdnCookiesOf } from './cdn-cookies'
import type { CallSpec, createTransport, Exchange } from './http'
import { describeIssue } from './http'
import { accountOf, signedInAccountOf } from './mapping'
import { REFRESH_COOKIE, refreshExpiryIn, refreshTokenIn, saysSessionInvalid, tokenExpiry } from './session'
import { type SignInStep, signInRefusalOf } from './sign-in-refusals'
import { codeChallengeAnswer, refreshAnswer, signedInAnswer, userAnswer } from './wire'

type Transport = ReturnType<typeof createTransport>
type Answer = Extract<Exchange, { kind: 'answer' }>

/**
 * `device_type_id` of the web app: "3", from a `WEB` constant of resy.com's bundle, the one auth
 * parameter of [idx 57928723907] that is not verbatim from it (a guess there, and so here).
 */
const WEB_DEVICE_TYPE_ID = '3'

export function signInCalls(http: Transport) {
  /** A sign-in answer's body: the session and the account, the account read from /2/user when the answer has none. */
  async function signedIn(got: Answer, jar: CdnCookies, step: string, fallbackName: string): Promise<Outcome<Account & PlatformSession>> {
    const parsed = signedInAnswer.safeParse(got.body)
    if (!parsed.success) return { kind: 'unavailable', detail: `${step}: ${describeIssue(parsed.error)}` }
    const session = sessionOf(parsed.data.token, parsed.data.refresh_token ?? null, got.headers, jar)
    const facts = signedInAccountOf(parsed.data)
    return { kind: 'ok', value: { ...(facts ?? (await accountFor(session, fallbackName))), ...session } }
  }

  /**
   * The account of a session whose sign-in answer had no facts (a code sign-in): GET /2/user. If
   * that fails the session is still the diner's (the code is spent): it is kept with safe facts,
   * no card (booking a card-hold table waits), which the next account check corrects.
   */
  async function accountFor(session: PlatformSession, fallbackName: string): Promise<Account> {
    const credentials: UserCredentials = { authToken: session.authToken, cdnCookies: session.cdnCookies }
    const got = await http.read({ method: 'GET', path: '/2/user', ...userCall(credentials) }, userAnswer)
    return got.kind === 'ok' ? accountOf(got.value) : { displayName: fallbackName, paymentMethodId: null }
  }

  /** One sign-in call: no retry; what it answered, or how it ended. */
  async function attempt(step: SignInStep, spec: CallSpec): Promise<Answer | Exclude<SignInOutcome<never>, { kind: 'ok' }>> {
    const got = await http.exchange({ ...spec, signsIn: true })
    if (got.kind !== 'answer') return { kind: 'unavailable', detail: got.kind === 'timeout' ? `${spec.path}: timeout` : got.detail }
    if (got.block) return { kind: 'blocked', signal: got.block }
    const refusal = signInRefusalOf(step, got.status, got.body)
    if (refusal) return { kind: 'refused', reason: refusal }
    if (got.status === 429) return { kind: 'rate_limited', retryAfterMs: got.retryAfterMs }
    if (got.status === 404) return { kind: 'not_found' }
    if (got.status >= 300) return { kind: 'unavailable', detail: `${spec.path}: HTTP ${got.status}` }
    return got
  }

  const codeForm = (sender: CodeSender) => ({ device_type_id: WEB_DEVICE_TYPE_ID, device_token: sender.deviceToken })

  return {
    async login(email: string, password: string): Promise<SignInOutcome<Account & PlatformSession>> {
      const jar: CdnCookies = {}
      const form = { email, password }
      // /4 first (Cierge since 2026-02; one client says /3 "no longer exists", [idx 57928723907]);
      // /3 only when /4 answers 404 (`chrischall/resy-mcp` used /3 through May 2026).
      let got = await attempt('password', { method: 'POST', path: '/4/auth/password', form, cookies: jar })
      if (got.kind === 'not_found') got = await attempt('password', { method: 'POST', path: '/3/auth/password', form, cookies: jar })
      if (got.kind !== 'answer') return got
      return signedIn(got, jar, 'login', email)
    },

    async sendCode(mobileNumber: string, sender: CodeSender): Promise<SignInOutcome<{ sent: true }>> {
      const form = { mobile_number: mobileNumber, method: 'sms', ...codeForm(sender) }
      const got = await attempt('send_code', { method: 'POST', path: '/4/auth/mobile', form, cookies: sender.cdnCookies })
      if (got.kind !== 'answer') return got
      // [idx 59086060355] reads `sent`; [idx 57928723907] reads nothing: any 2xx is a sent code.
      return { kind: 'ok', value: { sent: true } }
    },

    async checkCode(mobileNumber: string, code: string, sender: CodeSender): Promise<SignInOutcome<CodeVerdict>> {
      // The same endpoint as sending, with `code` ([idx 57928723907]: posting the code to
      // /4/auth/challenge is refused with "An invalid challenge_id was provided").
      const form = { mobile_number: mobileNumber, code, ...codeForm(sender) }
      const got = await attempt('check_code', { method: 'POST', path: '/4/auth/mobile', form, cookies: sender.cdnCookies })
      if (got.kind !== 'answer') return got
      const challenge = codeChallengeAnswer.safeParse(got.body)
      if (challenge.success && !hasToken(got.body)) {
        const { challenge_id } = challenge.data.challenge
        return {
          kind: 'ok',
          value: {
            kind: 'challenge',
            challenge: { challengeId: challenge_id, claimToken: challenge.data.mobile_claim?.claim_token ?? null },
          },
        }
      }
      const session = await signedIn({ ...got, body: sessionBody(got.body) }, sender.cdnCookies, 'code sign-in', maskedNumber(mobileNumber))
      return session.kind === 'ok' ? { kind: 'ok', value: { kind: 'signed_in', session: session.value } } : session
    },

    async answerChallenge(challenge: CodeChallenge, email: string, sender: CodeSender): Promise<SignInOutcome<Account & PlatformSession>> {
      const form: Record<string, string> = { challenge_id: challenge.challengeId, em_address: email, ...codeForm(sender) }
      if (challenge.claimToken !== null) form.claim_token = challenge.claimToken
      const got = await attempt('challenge', { method: 'POST', path: '/4/auth/challenge', form, cookies: sender.cdnCookies })
      if (got.kind !== 'answer') return got
      return signedIn({ ...got, body: sessionBody(got.body) }, sender.cdnCookies, 'challenge', email)
    },

    async refresh({ refreshToken, cdnCookies }: RefreshCredentials): Promise<Outcome<PlatformSession>> {
      // Both wire forms at once (docs/platform.md, "Sessions and refresh"): the cookie, exactly as
      // Set-Cookie gave it (`Cierge:resy/auth.go`), and the form field ([idx 57928723907]).
      // One attempt: the old refresh token may be spent even when the answer is lost.
      const spec: CallSpec = {
        method: 'POST',
        path: '/3/auth/refresh',
        form: { refresh_token: refreshToken },
        callCookies: { [REFRESH_COOKIE]: refreshToken },
        cookies: cdnCookies,
        signsIn: true,
      }
      const got = await http.exchange(spec)
      if (got.kind !== 'answer') return { kind: 'unavailable', detail: got.kind === 'timeout' ? 'refresh: timeout' : got.detail }
      if (got.block) return { kind: 'blocked', signal: got.block }
      if (got.status === 401 || got.status === 419) return { kind: 'reauth' }
      if (got.status === 429) return { kind: 'rate_limited', retryAfterMs: got.retryAfterMs }
      const parsed = refreshAnswer.safeParse(got.body)
      if (got.status >= 300 || !parsed.success) {
        // A 5xx that says the session is over is as final as a 419.
        if (got.status >= 500 && saysSessionInvalid(got.body)) return { kind: 'reauth' }
        return { kind: 'unavailable', detail: `refresh: ${parsed.success ? `HTTP ${got.status}` : describeIssue(parsed.error)}` }
      }
      const session = sessionOf(parsed.data.token, parsed.data.refresh_token ?? null, got.headers, cdnCookies)
      // Without a new refresh token the old one is assumed to still work, in the form it was sent.
      return session.refreshToken !== null
        ? { kind: 'ok', value: session }
        : { kind: 'ok', value: { ...session, refreshToken, refreshVia: 'cookie' } }
    },
  }
}

/** The user token in both headers and the session's cookie jar: what every user-token call sends. */
export const userCall = (credentials: UserCredentials): Pick<CallSpec, 'authToken' | 'cookies'> => ({
  authToken: credentials.authToken,
  cookies: credentials.cdnCookies,
})

/**
 * The session a sign-in or refresh answer carries: the refresh token from the cookie (Cierge) or
 * the body ([idx 57928723907]); the cookie wins when both come. The jar is copied: the session
 * owns its cookies from here on.
 */
function sessionOf(token: string, bodyRefresh: string | null, headers: Headers, jar: CdnCookies): PlatformSession {
  const cookie = refreshTokenIn(headers)
  const refreshToken = cookie ?? bodyRefresh
  return {
    authToken: token,
    refreshToken,
    refreshVia: cookie !== null ? 'cookie' : bodyRefresh !== null ? 'body' : null,
    refreshExpiresAt: cookie !== null ? refreshExpiryIn(headers) : bodyRefresh !== null ? tokenExpiry(bodyRefresh) : null,
    expiresAt: tokenExpiry(token),
    cdnCookies: cdnCookiesOf(jar),
  }
}

const record = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null

const hasToken = (body: unknown) => typeof record(body)?.token === 'string' || typeof record(record(body)?.user)?.token === 'string'

/** A code sign-in's session may come nested under `user` ([idx 57928723907] reads `first.user ?? first`). */
function sessionBody(body: unknown): unknown {
  const user = record(record(body)?.user)
  return typeof record(body)?.token !== 'string' && typeof user?.token === 'string' ? user : body
}

const maskedNumber = (mobileNumber: string) => `the account of ${mobileNumber.slice(0, -4).replace(/\d/g, '•')}${mobileNumber.slice(-4)}`
