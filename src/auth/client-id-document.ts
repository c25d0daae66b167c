// Client ID Metadata Documents (CIMD, draft-ietf-oauth-client-id-metadata-document-00, which MCP
// 2026-07-28 prefers to dynamic registration): a client whose `client_id` is an https URL with a
// path, where it publishes its name and redirect URIs. The library fetches and validates the
// document (`clientIdMetadataDocumentEnabled`: at most 5 KB, 10 s for headers and body, the
// `client_id` inside equal to the URL, redirect URIs checked, cached by its Cache-Control for at
// most 7 days; outbound fetches public only under the `global_fetch_strictly_public`
// compatibility flag). This module adds the address rule before anything is fetched: the URL's
// host must be on the public internet (src/lib/public-host.ts), on https's default port, so a
// client_id is never a way to make the service fetch one of its own neighbours. Only local
// development (LOCAL_DEVELOPMENT = "on") also accepts a loopback host on any port, where the tests
// serve their documents.
import { isLocalDevelopment } from '../core/deployment'
import { isLoopbackHost, publicHostProblem } from '../lib/public-host'

/** Longer client ids are refused before any lookup (a URL that long is no client's). */
const MAX_CLIENT_ID_URL = 2_000

/** Whether the library treats this client id as a metadata document's URL (https, with a path). */
function isClientIdDocumentUrl(clientId: string): boolean {
  if (!/^https:\/\//i.test(clientId) || !URL.canParse(clientId)) return false
  return /^https:\/\/[^/?#]+\/[^?#]*/i.test(clientId)
}

/** Why the service will not fetch this client id's metadata document, or null when it may. */
export function clientIdDocumentProblem(env: Pick<Cloudflare.Env, 'LOCAL_DEVELOPMENT'>, clientId: string): string | null {
  if (!isClientIdDocumentUrl(clientId)) return null
  if (clientId.length > MAX_CLIENT_ID_URL) return `A client_id URL can be at most ${MAX_CLIENT_ID_URL} characters.`
  const url = new URL(clientId)
  // A name may end in the root's dot ("localhost."), which names the same host.
  const host = url.hostname.replace(/\.$/, '')
  if (isLocalDevelopment(env) && isLoopbackHost(host)) return null
  if (url.port !== '') return "The app's client_id must use the standard https port."
  const problem = publicHostProblem(host)
  return problem ? `The app's client_id must be on the public internet (${problem.toLowerCase()}).` : null
}

/**
 * The client a token-endpoint request names: `client_id` in the form, the user of HTTP Basic
 * authentication, or the issuer of a `client_assertion` (RFC 7523: `iss` is the client id; the
 * library verifies the assertion, this only reads who it claims to be, to check the address).
 */
export function clientIdOfTokenRequest(form: FormData, authorization: string | null): string | null {
  const named = form.get('client_id')
  if (typeof named === 'string') return named
  if (authorization?.toLowerCase().startsWith('basic ')) {
    try {
      const user = atob(authorization.slice(6).trim()).split(':')[0] ?? ''
      return decodeURIComponent(user)
    } catch {
      return null
    }
  }
  const assertion = form.get('client_assertion')
  if (typeof assertion !== 'string') return null
  try {
    const payload: unknown = JSON.parse(atob((assertion.split('.')[1] ?? '').replaceAll('-', '+').replaceAll('_', '/')))
    return payload && typeof payload === 'object' && 'iss' in payload && typeof payload.iss === 'string' ? payload.iss : null
  } catch {
    return null
  }
}
