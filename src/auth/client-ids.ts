// The one reading of the client ids a request carries, shared by every endpoint that accepts one
// (the token endpoint with its revocation, the authorization endpoint), so that the checks made
// before the library (lengths, the metadata-document address rule) see every id the library could
// use. It reads as the library 1.2.3 does (dist/oauth-provider.js, parseTokenEndpointRequest,
// parseBasicAuthorizationHeader, readClientAssertionIssuer, parseAuthRequest) and returns a
// superset: every value, not only the one the library settles on.
// - the body's `client_id`, every value (the library drops empty ones and refuses repeats, but a
//   check must not stop at the first, which may be the empty one);
// - the user of `Authorization: Basic`: the scheme is what precedes the first space or tab, in
//   any case, the rest trimmed, base64, the part before the first `:`, form-decoded ("+" is a
//   space);
// - the `iss` of each `client_assertion`: any of its dot-separated parts that is base64url JSON
//   with a string `iss` (the library reads the second of three).

/** The user part of `Authorization: Basic …` as the library decodes it, or null (no Basic, or malformed). */
function basicClientId(header: string | null | undefined): string | null {
  if (!header) return null
  const schemeEnd = header.search(/[ \t]/)
  if (schemeEnd === -1 || header.slice(0, schemeEnd).toLowerCase() !== 'basic') return null
  const encoded = header.slice(schemeEnd).trim()
  if (!encoded || /[ \t]/.test(encoded)) return null
  try {
    const credentials = atob(encoded)
    const separator = credentials.indexOf(':')
    return separator === -1 ? null : decodeURIComponent(credentials.slice(0, separator).replace(/\+/g, ' '))
  } catch {
    return null
  }
}

function jsonOfBase64Url(part: string): unknown {
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/')
  const binary = atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '='))
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0))))
}

/** The `iss` a client assertion claims (unverified: only to check its address). */
function assertionIssuers(assertion: string): string[] {
  const issuers: string[] = []
  for (const part of assertion.split('.')) {
    try {
      const claims = jsonOfBase64Url(part)
      if (claims && typeof claims === 'object' && 'iss' in claims && typeof claims.iss === 'string') issuers.push(claims.iss)
    } catch {
      // Not base64url JSON: the library cannot read an issuer from this part either.
    }
  }
  return issuers
}

const strings = (values: ReturnType<FormData['getAll']>): string[] => values.filter((value): value is string => typeof value === 'string')

/** Every client id a token-endpoint request (a code exchange, a refresh or a revocation) carries. */
export function clientIdsOfTokenRequest(form: FormData | null, authorization: string | null): string[] {
  const ids = form ? strings(form.getAll('client_id')) : []
  const basic = basicClientId(authorization)
  if (basic !== null) ids.push(basic)
  for (const assertion of form ? strings(form.getAll('client_assertion')) : []) ids.push(...assertionIssuers(assertion))
  return ids.filter((id) => id !== '')
}

/** Every client id an authorization request carries (the library reads the query's first). */
export function clientIdsOfAuthorizeRequest(url: URL): string[] {
  return url.searchParams.getAll('client_id').filter((id) => id !== '')
}
