// The user's platform session as the evidence describes it (docs/platform.md, "Sessions and refresh"):
// the auth token is a JWT whose `exp` says when it stops working (no explicit expiry is
// returned); the refresh token comes as the `production_refresh_token` cookie of login and of
// `POST /3/auth/refresh` (`Cierge:resy/auth.go`); and an expired session is sometimes answered
// with a 500 whose body speaks of authorization (`chrischall/resy-mcp`, 2026-05). Pure.

export const REFRESH_COOKIE = 'production_refresh_token'

/** A token is renewed when less than a quarter of its life, and at most this, is left. */
const RENEW_AHEAD_MAX_MS = 24 * 60 * 60 * 1000

/**
 * Whether a token should be renewed now, ahead of its `exp`: when a quarter of its life is left
 * (its life unknown: when a day is left). Without an `exp` it is renewed only when rejected.
 */
export function renewalDue(token: { expiresAt: number | null; obtainedAt: number | null }, now: number): boolean {
  if (token.expiresAt === null) return false
  const life = token.obtainedAt === null ? Number.POSITIVE_INFINITY : token.expiresAt - token.obtainedAt
  return token.expiresAt - now <= Math.min(RENEW_AHEAD_MAX_MS, life / 4)
}

/** When the JWT stops working (epoch ms), read without checking its signature; null if unreadable. */
export function tokenExpiry(token: string): number | null {
  const payload = token.split('.')[1]
  if (!payload) return null
  try {
    const json: unknown = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/')))
    const exp = typeof json === 'object' && json !== null && 'exp' in json ? json.exp : null
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : null
  } catch {
    return null
  }
}

/**
 * The refresh token a reply's Set-Cookie headers carry, or null: the value exactly as given, never
 * decoded, since it is sent back as it came (values may contain `+`, `/`, `=`; decoding a `%`
 * or a `+` would hand the platform a token it never issued). Other cookies (the CDN's
 * `visid_incap_*` …) are passed over.
 */
export function refreshTokenIn(headers: Headers): string | null {
  for (const cookie of headers.getSetCookie()) {
    const [pair = ''] = cookie.split(';')
    const at = pair.indexOf('=')
    if (at > 0 && pair.slice(0, at).trim() === REFRESH_COOKIE) return pair.slice(at + 1).trim() || null
  }
  return null
}

const SPEAKS_OF_SESSION = /\b(?:auth\w*|session|token|log(?:ged)? ?in|sign(?:ed)? ?in)\b/i
const SAYS_IT_ENDED = /\b(?:invalid|expired|unauthori[sz]ed|not (?:valid|authori[sz]ed)|log(?:ged)? ?out|please log ?in)\b/i

/** A 5xx body that says the session is no longer valid (treated like 419 on a user-token call). */
export function saysSessionInvalid(body: unknown): boolean {
  const text = typeof body === 'string' ? body : body !== null && typeof body === 'object' ? JSON.stringify(body) : ''
  return SPEAKS_OF_SESSION.test(text) && SAYS_IT_ENDED.test(text)
}
