// The CDN in front of the platform (Imperva): it marks EVERY answer, successful ones included,
// not only its blocks (docs/platform.md, "The CDN"). A Feb 2026 write-up of a working login
// notes that `X-CDN: Imperva` "is still present" on the 200 ([idx 52679252770]); WAF fingerprinting
// tools identify Imperva sites by `X-CDN: Imperva`, `X-Iinfo` and the `visid_incap_*` /
// `incap_ses_*` / `nlbi_*` cookies on ordinary answers ([idx 69602287299], [idx 25069970681]);
// other Imperva-fronted APIs carry them on JSON GETs and on a 201 ([idx 55823720965],
// [idx 40939053776]). The sandbox adds them to every platform answer, so a client that reads a
// header as a block fails here as it would against the platform.
//
// Like Imperva, it sets a cookie only to a client that did not send it (a visitor keeps its
// `visid_incap_*`, a browser its session's `incap_ses_*`), and the visitor id is one this world
// issued (it carries a check of the world's name), so the sandbox can tell a client that keeps
// the CDN's cookies, as a browser does, from one that drops them: with `cdnCookiesRequired`, an
// account call without them gets Imperva's cookie challenge (`"unknown_clients_challenge":
// "cookies"`, imperva/terraform-provider-incapsula#487; docs/platform.md, "The CDN").
import { hashOf } from './prng'

/** The Imperva site id in the cookie names (any number: clients must not depend on it). */
const SITE = 2_295_712
const POD = 1_184
const VISITOR = `visid_incap_${SITE}`
const SESSION = `incap_ses_${POD}_${SITE}`
const BALANCER = `nlbi_${SITE}`

const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))

/** Imperva's cookie values are base64: letters, digits, `+`, `/` and `=`. */
function cookieValue(bytes: number): string {
  return base64(crypto.getRandomValues(new Uint8Array(bytes)))
}

/** A visitor id of this world: 30 random bytes and a 4-byte check of them with the world's name. */
function visitorId(world: string): string {
  const random = crypto.getRandomValues(new Uint8Array(30))
  const check = hashOf(`${world}|${base64(random)}`)
  return base64(new Uint8Array([...random, check >>> 24, (check >>> 16) & 0xff, (check >>> 8) & 0xff, check & 0xff]))
}

function isVisitorOf(world: string, value: string): boolean {
  let bytes: Uint8Array
  try {
    bytes = Uint8Array.from(atob(value), (c) => c.charCodeAt(0))
  } catch {
    return false
  }
  if (bytes.length !== 34) return false
  const check = hashOf(`${world}|${base64(bytes.slice(0, 30))}`)
  return (((bytes[30] ?? 0) << 24) | ((bytes[31] ?? 0) << 16) | ((bytes[32] ?? 0) << 8) | (bytes[33] ?? 0)) >>> 0 === check
}

/** The cookies a request carries, by name (values as sent). */
export function cookiesOf(header: string | null | undefined): Map<string, string> {
  const cookies = new Map<string, string>()
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=')
    if (at > 0) cookies.set(part.slice(0, at).trim(), part.slice(at + 1).trim())
  }
  return cookies
}

/** Whether the request carries this world's visitor id and a CDN session cookie, as a browser that kept them does. */
export function carriesCdnCookies(world: string, cookieHeader: string | null | undefined): boolean {
  const cookies = cookiesOf(cookieHeader)
  const visitor = cookies.get(VISITOR)
  return visitor !== undefined && isVisitorOf(world, visitor) && (cookies.get(SESSION) ?? '') !== ''
}

/** X-Iinfo: Imperva's request trace (`<pop>-<request>-<n> <flags> RT(<ms> <n>) q(…) r(…)`). */
function iinfo(now: number): string {
  const request = crypto.getRandomValues(new Uint32Array(1))[0] ?? 0
  return `14-${request}-${request + 1} NNNN CT(0 0 0) RT(${now} 0) q(0 0 0 -1) r(0 0) U6`
}

/**
 * Adds the CDN's headers to an answer, and the cookies the request did not carry (every answer
 * the sandbox builds has mutable headers).
 */
export function markByCdn(headers: Headers, world: string, requestCookies: string | null | undefined, now = Date.now()): void {
  headers.set('X-CDN', 'Imperva')
  headers.set('X-Iinfo', iinfo(now))
  const sent = cookiesOf(requestCookies)
  const expires = new Date(now + 365 * 86_400_000).toUTCString()
  const scope = 'path=/; Domain=.resy.com; Secure; SameSite=None'
  const visitor = sent.get(VISITOR)
  if (visitor === undefined || !isVisitorOf(world, visitor))
    headers.append('Set-Cookie', `${VISITOR}=${visitorId(world)}; expires=${expires}; HttpOnly; ${scope}`)
  if (!sent.get(BALANCER)) headers.append('Set-Cookie', `${BALANCER}=${cookieValue(36)}; HttpOnly; ${scope}`)
  if (!sent.get(SESSION)) headers.append('Set-Cookie', `${SESSION}=${cookieValue(48)}; ${scope}`)
}
