// The probe's calls from Cloudflare's network: each request is handed to the relay worker
// (relay.ts, run by the operator with `wrangler dev --remote`), which makes it from there and
// hands back the answer as it came. The wire format between the two is the probe's own.
import { z } from 'zod'

/** What the probe asks the relay to send. */
export const relayedRequest = z.object({
  method: z.enum(['GET', 'POST', 'OPTIONS']),
  url: z.string().url(),
  headers: z.array(z.tuple([z.string(), z.string()])).max(60),
  body: z.string().max(64_000).nullable(),
})
export type RelayedRequest = z.infer<typeof relayedRequest>

/** What came back to the relay. Set-Cookie headers are kept one by one. */
export const relayedAnswer = z.object({
  status: z.number().int().min(100).max(599),
  headers: z.array(z.tuple([z.string(), z.string()])),
  body: z.string(),
})
export type RelayedAnswer = z.infer<typeof relayedAnswer>

export const RELAY_PATH = '/relay'

/** A network whose requests the relay makes. */
export function relayNetwork(
  relay: { url: string; token: string },
  network: (request: Request) => Promise<Response>,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const body = request.body === null ? null : await request.clone().text()
    const payload: RelayedRequest = {
      method: relayedRequest.shape.method.parse(request.method),
      url: request.url,
      headers: [...request.headers],
      body,
    }
    const res = await network(
      new Request(`${relay.url}${RELAY_PATH}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${relay.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(payload),
        signal: request.signal,
      }),
    )
    const parsed = relayedAnswer.safeParse(await res.json().catch(() => null))
    if (res.status !== 200 || !parsed.success)
      throw new Error(`the relay answered HTTP ${res.status}: is it running, with the same PROBE_RELAY_TOKEN?`)
    const headers = new Headers()
    for (const [name, value] of parsed.data.headers) headers.append(name, value)
    const empty = parsed.data.status === 204 || parsed.data.status === 304
    return new Response(empty ? null : parsed.data.body, { status: parsed.data.status, headers })
  }
}

/** The answer a relay hands back for what it received. */
export async function relayedAnswerOf(res: Response): Promise<RelayedAnswer> {
  const headers: [string, string][] = []
  res.headers.forEach((value, name) => {
    if (name.toLowerCase() !== 'set-cookie') headers.push([name, value])
  })
  for (const cookie of res.headers.getSetCookie()) headers.push(['set-cookie', cookie])
  return { status: res.status, headers, body: await res.text() }
}
