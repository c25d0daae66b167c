// Every URL the OAuth library fetches because a client named it (a Client ID Metadata Document,
// a client's or an issuer's `jwks_uri`) is held to the address rule of src/auth/client-id-document.ts,
// and its redirects are not followed: a public URL answering 302 to an internal one would
// otherwise be followed with no check. The library calls the global fetch with no `redirect`
// option and offers no hook for it, so the global fetch is wrapped: the library marks each of
// its outbound requests with its User-Agent (`workers-oauth-provider/<version> …`, 1.2.3
// dist/oauth-provider.js OUTBOUND_USER_AGENT), and only those are touched. A refused URL throws
// as a failed fetch does, so the library answers as for an unreachable document (invalid_client,
// or the consent page's refusal). test/oauth/client-id-redirects.test.ts fails if the library
// stops marking its requests.
import { fetchAddressProblem } from './client-id-document'

const LIBRARY_USER_AGENT = /^workers-oauth-provider\//

type DeploymentEnv = Pick<Cloudflare.Env, 'LOCAL_DEVELOPMENT'>

/** The deployment the guard applies (an isolate serves one; local development allows loopback). */
let deployment: DeploymentEnv = { LOCAL_DEVELOPMENT: undefined }
const guards = new WeakSet<typeof fetch>()

function userAgentOf(input: RequestInfo | URL, init: RequestInit | undefined): string {
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined))
  return headers.get('User-Agent') ?? ''
}

/**
 * Puts the guard around the global fetch, unless it is already the outermost wrapper (a test
 * that replaces fetch gets wrapped again at the next OAuth call). Called before every use of the
 * library (src/auth/oauth.ts).
 */
export function guardLibraryFetches(env: DeploymentEnv): void {
  deployment = { LOCAL_DEVELOPMENT: env.LOCAL_DEVELOPMENT }
  if (guards.has(globalThis.fetch)) return
  const inner = globalThis.fetch
  const guard: typeof fetch = async (input, init) => {
    if (!LIBRARY_USER_AGENT.test(userAgentOf(input, init))) return inner(input, init)
    const problem = fetchAddressProblem(deployment, input instanceof Request ? input.url : String(input))
    if (problem) throw new TypeError(`Refused to fetch a URL a client named: it must ${problem}.`)
    return inner(input, { ...init, redirect: 'manual' })
  }
  guards.add(guard)
  Reflect.set(globalThis, 'fetch', guard)
}
