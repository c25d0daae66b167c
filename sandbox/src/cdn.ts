// The CDN in front of the platform (Imperva): it marks EVERY answer, successful ones included,
// not only its blocks (docs/platform.md, "The CDN"). A Feb 2026 write-up of a working login
// notes that `X-CDN: Imperva` "is still present" on the 200 ([idx 52679252770]); WAF fingerprinting
// tools identify Imperva sites by `X-CDN: Imperva`, `X-Iinfo` and the `visid_incap_*` /
// `incap_ses_*` / `nlbi_*` cookies on ordinary answers ([idx 69602287299], [idx 25069970681]);
// other Imperva-fronted APIs carry them on JSON GETs and on a 201 ([idx 55823720965],
// [idx 40939053776]). The sandbox adds them to every platform answer, so a client that reads a
// header as a block fails here as it would against the platform.

/** The Imperva site id in the cookie names (any number: clients must not depend on it). */
const SITE = 2_295_712
const POD = 1_184

/** Imperva's cookie values are base64: letters, digits, `+`, `/` and `=`. */
function cookieValue(bytes: number): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(bytes))))
}

/** X-Iinfo: Imperva's request trace (`<pop>-<request>-<n> <flags> RT(<ms> <n>) q(…) r(…)`). */
function iinfo(now: number): string {
  const request = crypto.getRandomValues(new Uint32Array(1))[0] ?? 0
  return `14-${request}-${request + 1} NNNN CT(0 0 0) RT(${now} 0) q(0 0 0 -1) r(0 0) U6`
}

/** Adds the CDN's headers and cookies to an answer's headers (every answer the sandbox builds has mutable ones). */
export function markByCdn(headers: Headers, now = Date.now()): void {
  headers.set('X-CDN', 'Imperva')
  headers.set('X-Iinfo', iinfo(now))
  const expires = new Date(now + 365 * 86_400_000).toUTCString()
  const scope = 'path=/; Domain=.resy.com; Secure; SameSite=None'
  headers.append('Set-Cookie', `visid_incap_${SITE}=${cookieValue(48)}; expires=${expires}; HttpOnly; ${scope}`)
  headers.append('Set-Cookie', `nlbi_${SITE}=${cookieValue(36)}; HttpOnly; ${scope}`)
  headers.append('Set-Cookie', `incap_ses_${POD}_${SITE}=${cookieValue(48)}; ${scope}`)
}
