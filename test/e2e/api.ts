// The assistant's side of the end-to-end flow: plain REST calls with the user's token.
import { expect } from 'vitest'

export interface Json {
  [key: string]: unknown
}

export async function callApi(
  baseUrl: string,
  token: string,
  path: string,
  init: { method?: string; body?: unknown; idempotencyKey?: string } = {},
) {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` }
  if (init.body !== undefined) headers['Content-Type'] = 'application/json'
  if (init.idempotencyKey) headers['Idempotency-Key'] = init.idempotencyKey
  const res = await fetch(`${baseUrl}/api/v1${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
  return { status: res.status, body: (await res.json()) as Json }
}

/** YYYY-MM-DD of today + `days` in the zone. */
export function dateIn(timeZone: string, days: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date())
  const d = new Date(`${today}T12:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

/** Polls the request until `done` holds for its view, or fails after `timeoutMs`. */
export async function waitForRequest(
  baseUrl: string,
  token: string,
  id: string,
  done: (view: Json) => boolean,
  timeoutMs = 120_000,
): Promise<Json> {
  const deadline = Date.now() + timeoutMs
  let last: Json = {}
  while (Date.now() < deadline) {
    const res = await callApi(baseUrl, token, `/requests/${id}`)
    expect(res.status).toBe(200)
    last = res.body
    if (done(last)) return last
    await new Promise((ok) => setTimeout(ok, 1_000))
  }
  throw new Error(`request ${id} did not get there in time; last view: ${JSON.stringify(last)}`)
}
