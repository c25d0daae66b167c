// Client ID Metadata Documents (CIMD, draft-ietf-oauth-client-id-metadata-document-00, which MCP
// 2026-07-28 prefers to dynamic registration): a client whose `client_id` is an https URL with a
// path, where it publishes its name and redirect URIs. The library fetches and validates the
// document (`clientIdMetadataDocumentEnabled`: at most 5 KB, 10 s for headers and body, the
// `client_id` inside equal to the URL, redirect URIs checked, cached by its Cache-Control for at
// most 7 days; outbound fetches public only under the `global_fetch_strictly_public`
// compatibility flag). This module adds the address rule before anything is fetched: the URL must
// be https, on https's default port, to a host on the public internet (src/lib/public-host.ts), at
// most MAX_CLIENT_ID_URL long, so a client_id is never a way to make the service fetch one of its
// own neighbours. Only local development (LOCAL_DEVELOPMENT = "on") also accepts a loopback host
// on any port, where the tests serve their documents.
//
// The rule is applied to every client id a request carries, read the way the library reads them
// (src/auth/client-ids.ts), and again to every URL the library fetches (src/auth/outbound-guard.ts),
// which also covers a document's `jwks_uri` and refuses redirects.
import { isLocalDevelopment } from '../core/deployment'
import { isLoopbackHost, publicHostProblem } from '../lib/public-host'

/** Longer client ids are refused before any lookup (a URL that long is no client's). */
const MAX_CLIENT_ID_URL = 2_000

type DeploymentEnv = Pick<Cloudflare.Env, 'LOCAL_DEVELOPMENT'>

/**
 * Whether the library may treat this client id as a URL to fetch. The library asks for an
 * https URL with a path (`new URL(id)`, so `HTTPS:/host/x` and ` https://host/x` count, as the URL
 * parser rewrites them); any https URL counts here, a superset.
 */
function isClientIdDocumentUrl(clientId: string): boolean {
  return URL.canParse(clientId) && new URL(clientId).protocol === 'https:'
}

/**
 * What a URL the service fetches on a client's say-so must do and does not ("use https", …, to
 * follow "must"), or null when the service may fetch it.
 */
export function fetchAddressProblem(env: DeploymentEnv, address: string): string | null {
  if (!URL.canParse(address)) return 'be a URL'
  const url = new URL(address)
  if (url.protocol !== 'https:') return 'use https'
  // A name may end in the root's dot ("localhost."), which names the same host.
  const host = url.hostname.replace(/\.$/, '')
  if (isLocalDevelopment(env) && isLoopbackHost(host)) return null
  if (url.port !== '') return 'use the standard https port'
  const problem = publicHostProblem(host)
  return problem ? `be on the public internet (${problem.toLowerCase()})` : null
}

/** Why the service will not fetch this client id's metadata document, or null when it may (or it is no URL). */
function clientIdDocumentProblem(env: DeploymentEnv, clientId: string): string | null {
  if (!isClientIdDocumentUrl(clientId)) return null
  if (clientId.length > MAX_CLIENT_ID_URL) return `A client_id URL can be at most ${MAX_CLIENT_ID_URL} characters.`
  const problem = fetchAddressProblem(env, clientId)
  return problem ? `The app's client_id must ${problem}.` : null
}

/** The first problem among every client id a request carries, or null. */
export function clientIdsProblem(env: DeploymentEnv, clientIds: readonly string[]): string | null {
  for (const clientId of clientIds) {
    const problem = clientIdDocumentProblem(env, clientId)
    if (problem) return problem
  }
  return null
}
