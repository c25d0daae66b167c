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

/**
 * Each URL's answer is kept a minute: the library fetches a document up to three times per
 * consent page (parse, describe, begin) and again per token call, and caches only a valid one
 * that asks to be cached. At most MAX_KEPT answers, each at most KEPT_BYTES (a longer body is
 * kept cut, which the library's 5 KB limit refuses all the same).
 */
const KEEP_MS = 60_000
const MAX_KEPT = 200
const KEPT_BYTES = 16 * 1024
interface KeptAnswer {
  at: number
  status: number
  headers: [string, string][]
  body: Uint8Array
}
/** By the fetch they came through: a replaced global fetch (a test's stand-in) starts with none. */
const keptBy = new WeakMap<typeof fetch, Map<string, KeptAnswer>>()

async function firstBytes(response: Response, max: number): Promise<Uint8Array> {
  const reader = response.body?.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  while (reader && size <= max) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    size += value.length
  }
  await reader?.cancel().catch(() => undefined)
  const bytes = new Uint8Array(Math.min(size, max + 1))
  let offset = 0
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.length - offset)
    bytes.set(part, offset)
    offset += part.length
    if (offset >= bytes.length) break
  }
  return bytes
}

const answerOf = (k: KeptAnswer) =>
  new Response(k.status === 204 || k.status === 304 ? null : k.body, { status: k.status, headers: k.headers })

/** The URL's answer, fetched at most once a minute. */
async function keptFetch(inner: typeof fetch, url: string, input: RequestInfo | URL, init: RequestInit | undefined): Promise<Response> {
  const now = Date.now()
  const kept = keptBy.get(inner) ?? new Map<string, KeptAnswer>()
  keptBy.set(inner, kept)
  const hit = kept.get(url)
  if (hit && now - hit.at < KEEP_MS) return answerOf(hit)
  const response = await inner(input, { ...init, redirect: 'manual' })
  const headers = [...response.headers].filter(([name]) => name.toLowerCase() !== 'content-length')
  const entry: KeptAnswer = { at: now, status: response.status, headers, body: await firstBytes(response, KEPT_BYTES) }
  if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value ?? '')
  kept.set(url, entry)
  return answerOf(entry)
}

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
    const url = input instanceof Request ? input.url : String(input)
    const problem = fetchAddressProblem(deployment, url)
    if (problem) throw new TypeError(`Refused to fetch a URL a client named: it must ${problem}.`)
    return keptFetch(inner, url, input, init)
  }
  guards.add(guard)
  Reflect.set(globalThis, 'fetch', guard)
}
