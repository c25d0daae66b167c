// Length caps on the identifiers and tokens callers present. Workers KV
// refuses keys over 512 bytes with an exception, and the OAuth library builds its keys from what
// the caller sent (`client:<client_id>`, `token:<user>:<grant>:<hash>`, `grant:<user>:<grant>`),
// so an overlong value became an unauthenticated 5xx. Everything the service issues is far
// shorter (access and refresh tokens about 100 characters, client ids 16, PATs 47), so a value
// over the cap cannot be one of ours and is refused before any lookup.

import { clientIdsOfTokenRequest } from './client-ids'

/** Tokens (bearer, refresh, code, revocation) and opaque ids: any longer cannot be ours. */
const MAX_TOKEN_BYTES = 256
/** A registered (opaque) client id: the library issues 16 characters. */
const MAX_OPAQUE_CLIENT_ID_BYTES = 256
/**
 * A client id that is a Client ID Metadata Document URL (CIMD, https). The library fetches it
 * rather than looking it up in KV when CIMD is on, so it may be longer than a KV key; 2,048
 * characters is the common URL limit of browsers and CDNs, and the document itself is capped at
 * 5 KiB by the library (`CIMD_MAX_SIZE_BYTES`).
 */
const MAX_CIMD_CLIENT_ID_BYTES = 2048

const encoder = new TextEncoder()

function byteLength(value: string): number {
  return encoder.encode(value).length
}

export function tokenFits(token: string): boolean {
  return byteLength(token) <= MAX_TOKEN_BYTES
}

function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:'
  } catch {
    return false
  }
}

/**
 * The library resolves an https client id through CIMD only with the `global_fetch_strictly_public`
 * compatibility flag (it refuses CIMD without it); otherwise the id is a KV key like any other.
 */
function cimdPossible(): boolean {
  return typeof Cloudflare !== 'undefined' && Cloudflare.compatibilityFlags?.global_fetch_strictly_public === true
}

/** Whether a client id may go on to the library: short enough for KV, or a CIMD URL of sane length. */
export function clientIdFits(clientId: string): boolean {
  const bytes = byteLength(clientId)
  if (bytes <= MAX_OPAQUE_CLIENT_ID_BYTES) return true
  return cimdPossible() && isHttpsUrl(clientId) && bytes <= MAX_CIMD_CLIENT_ID_BYTES
}

function oauthError(error: string, description: string, status: number): Response {
  return Response.json(
    { error, error_description: description },
    { status, headers: { 'Cache-Control': 'no-store', ...(status === 401 ? { 'WWW-Authenticate': 'Basic realm="OAuth"' } : {}) } },
  )
}

/**
 * The token endpoint's request (a code exchange, a refresh or an RFC 7009 revocation) refused
 * for an overlong value, in the OAuth error format; null when every value fits.
 */
export function overlongTokenRequest(request: Request, form: FormData | null): Response | null {
  if (clientIdsOfTokenRequest(form, request.headers.get('Authorization')).some((id) => !clientIdFits(id))) {
    return oauthError('invalid_client', 'Client authentication failed.', 401)
  }
  const values = ['refresh_token', 'code', 'token', 'code_verifier'].map((name) => form?.get(name))
  if (values.some((value) => typeof value === 'string' && !tokenFits(value))) {
    return oauthError('invalid_grant', 'The token or code is not valid.', 400)
  }
  return null
}
