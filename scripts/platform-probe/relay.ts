// The probe's relay: a Worker that makes the probe's allow-listed calls from Cloudflare's network,
// so the operator can compare what the platform answers there with what it answers at home
// (docs/platform.md, "Where calls may come from": a Worker's calls carry `CF-Worker`, from
// Cloudflare's shared ranges). Run by the operator only for a probe, never deployed:
//   npx wrangler dev --remote -c scripts/platform-probe/relay.wrangler.toml --var PROBE_RELAY_TOKEN:<secret>
// It relays nothing without that token, only to the platform (PROBE_BASE_URL), and only the calls
// of the probe's allow-list (allowed-calls.ts): never a booking.
import { callOf, checkEmpty, isAllowed, RefusedCall } from './allowed-calls'
import { RELAY_PATH, relayedAnswerOf, relayedRequest } from './relay-network'

export interface RelayEnv {
  PROBE_RELAY_TOKEN?: string
  /** The platform the relay may call (default https://api.resy.com). */
  PROBE_BASE_URL?: string
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

/** Equal without stopping at the first difference. */
function sameSecret(a: string, b: string): boolean {
  let diff = a.length ^ b.length
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0)
  return diff === 0
}

/** Headers the relay's own fetch sets. */
const HOP_BY_HOP = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'cf-connecting-ip', 'cf-worker'])

export async function relay(request: Request, env: RelayEnv): Promise<Response> {
  const token = env.PROBE_RELAY_TOKEN ?? ''
  if (token.length < 24) return json(503, { error: 'set PROBE_RELAY_TOKEN (24 characters or more) on the relay' })
  if (request.method !== 'POST' || new URL(request.url).pathname !== RELAY_PATH) return json(404, { error: 'not found' })
  const given = /^Bearer (.+)$/.exec(request.headers.get('Authorization') ?? '')?.[1] ?? ''
  if (!sameSecret(given, token)) return json(401, { error: 'wrong or missing token' })
  const parsed = relayedRequest.safeParse(await request.json().catch(() => null))
  if (!parsed.success) return json(400, { error: 'not a relayed request' })
  const wanted = parsed.data
  const base = new URL(env.PROBE_BASE_URL ?? 'https://api.resy.com')
  const target = new URL(wanted.url)
  if (target.origin !== base.origin) return json(403, { error: `the relay calls ${base.origin} only` })
  const headers = new Headers(wanted.headers.filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase())))
  const outgoing = new Request(target, { method: wanted.method, headers, body: wanted.body })
  const call = callOf(outgoing)
  try {
    if (!isAllowed(call)) throw new RefusedCall(call)
    await checkEmpty(call, outgoing)
  } catch (err) {
    return json(403, { error: err instanceof Error ? err.message : 'refused' })
  }
  try {
    return json(200, await relayedAnswerOf(await fetch(outgoing)))
  } catch (err) {
    return json(502, { error: `the platform did not answer the relay: ${err instanceof Error ? err.message : 'fetch failed'}` })
  }
}

export default { fetch: relay }
