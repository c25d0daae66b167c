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

/**
 * The refresh token's own end (epoch ms), as its Set-Cookie states it (Max-Age, else Expires),
 * or as its JWT `exp` when it came in the body; null when nothing says.
 */
export function refreshExpiryIn(headers: Headers, now = Date.now()): number | null {
  for (const cookie of headers.getSetCookie()) {
    const [pair = '', ...attributes] = cookie.split(';')
    if (pair.slice(0, pair.indexOf('=')).trim() !== REFRESH_COOKIE) continue
    let expires: number | null = null
    for (const attribute of attributes) {
      const [key = '', value = ''] = attribute.split('=').map((part) => part.trim())
      if (key.toLowerCase() === 'max-age' && /^\d+$/.test(value)) return now + Number(value) * 1000
      if (key.toLowerCase() === 'expires' && !Number.isNaN(Date.parse(value))) expires = Date.parse(value)
    }
    return expires
  }
  return null
}

/**
 * When the session itself ends (epoch ms): with a refresh token, when that token stops working
 * (null when not stated: it is renewed before, and ends only when refused); without one, at the
 * auth token's `exp`, since nothing can renew it (docs/platform.md, "Sessions and refresh":
 * sessions from a code sign-in may carry no refresh token, [idx 57928723907]).
 */
export function sessionEndOf(session: { refreshToken: string | null; refreshExpiresAt: number | null; expiresAt: number | null }) {
  return session.refreshToken !== null ? session.refreshExpiresAt : session.expiresAt
}

/**
 * A new browser for a code sign-in: a device token of its own (the platform ties the code to it,
 * [idx 57928723907]) and an empty cookie jar. Kept until the code is used.
 */
export function newCodeSender(): { deviceToken: string; cdnCookies: Record<string, string> } {
  return { deviceToken: crypto.randomUUID(), cdnCookies: {} }
}

/**
 * A mobile number as the platform takes it, E.164 (`+` and digits; [idx 59086060355] sends
 * `+1…` for a ten-digit US number), or null when it is not one: spaces, dots, dashes and
 * brackets are dropped; ten digits, or eleven starting with 1, are a US number.
 */
export function mobileNumberOf(input: string): string | null {
  const compact = input.trim().replace(/[\s().-]/g, '')
  if (/^\+[1-9]\d{7,14}$/.test(compact)) return compact
  if (/^\d{10}$/.test(compact)) return `+1${compact}`
  if (/^1\d{10}$/.test(compact)) return `+${compact}`
  return null
}
