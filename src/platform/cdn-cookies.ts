// The CDN's cookies, kept per platform session as a browser keeps them (docs/platform.md, "The
// CDN"): Imperva sets `visid_incap_<site>`, `incap_ses_<pod>_<site>` and `nlbi_<site>` on its
// answers ([idx 69602287299], [idx 25069970681]) and a browser sends them back on every later call
// to the site; a site may switch Imperva to challenge clients that come without them
// (`"unknown_clients_challenge":"cookies"`, imperva/terraform-provider-incapsula#487). Values are
// kept exactly as Set-Cookie gave them (base64: `+`, `/`, `=`), never decoded. Pure.
import type { CdnCookies } from './api'

/** The CDN's cookie names; any other cookie (the refresh token's included) is not the jar's. */
const CDN_COOKIE = /^(?:visid_incap_\d+|incap_ses_\d+_\d+|nlbi_\d+(?:_\d+)?)$/

/** A session keeps at most this many: Imperva sets three per site; more is an answer gone odd. */
const MAX_COOKIES = 12
const MAX_VALUE_LENGTH = 1024

const isCdnCookie = (name: string) => CDN_COOKIE.test(name)

/** A value a Cookie header can carry back unchanged. */
const SENDABLE = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/

/**
 * Updates `jar` in place from an answer's Set-Cookie headers, as a browser does: a CDN cookie is
 * added or replaced, and removed when Set-Cookie expires it (Max-Age ≤ 0, or Expires in the
 * past). True when the jar changed (the caller stores it).
 */
export function keepCdnCookies(jar: CdnCookies, setCookies: readonly string[], now = Date.now()): boolean {
  let changed = false
  for (const header of setCookies) {
    const [pair = '', ...attributes] = header.split(';')
    const at = pair.indexOf('=')
    if (at <= 0) continue
    const name = pair.slice(0, at).trim()
    const value = pair.slice(at + 1).trim()
    if (!isCdnCookie(name)) continue
    if (expired(attributes, now) || value === '') {
      if (name in jar) {
        delete jar[name]
        changed = true
      }
      continue
    }
    if (value.length > MAX_VALUE_LENGTH || !SENDABLE.test(value)) continue
    if (!(name in jar) && Object.keys(jar).length >= MAX_COOKIES) continue
    if (jar[name] !== value) {
      jar[name] = value
      changed = true
    }
  }
  return changed
}

function expired(attributes: string[], now: number): boolean {
  for (const attribute of attributes) {
    const at = attribute.indexOf('=')
    const key = (at < 0 ? attribute : attribute.slice(0, at)).trim().toLowerCase()
    const value = at < 0 ? '' : attribute.slice(at + 1).trim()
    if (key === 'max-age' && /^-?\d+$/.test(value)) return Number(value) <= 0
    if (key === 'expires') {
      const when = Date.parse(value)
      if (!Number.isNaN(when) && when <= now) return true
    }
  }
  return false
}

/** The Cookie header for the jar and any other cookies of the call (the refresh token's); null when there are none. */
export function cookieHeader(jar: CdnCookies | undefined, others: Record<string, string> = {}): string | null {
  const pairs = [...Object.entries(others), ...Object.entries(jar ?? {}).filter(([name]) => isCdnCookie(name))]
  return pairs.length === 0 ? null : pairs.map(([name, value]) => `${name}=${value}`).join('; ')
}

/** A stored or relayed jar, checked: only the CDN's names and values a Cookie header can carry. */
export function cdnCookiesOf(value: unknown): CdnCookies {
  const jar: CdnCookies = {}
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return jar
  for (const [name, v] of Object.entries(value)) {
    if (Object.keys(jar).length >= MAX_COOKIES) break
    if (isCdnCookie(name) && typeof v === 'string' && v !== '' && v.length <= MAX_VALUE_LENGTH && SENDABLE.test(v)) jar[name] = v
  }
  return jar
}
