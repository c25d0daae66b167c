// Calls into the worker through SELF, each answer recorded for the secrets check, and a
// runner that sends many calls with bounded concurrency (the machine has two cores).
import { SELF } from 'cloudflare:test'
import { recordResponse } from './leaks'

export interface Call {
  /** http://localhost unless given (MCP answers only at its canonical origin). */
  origin?: string
  method: string
  /** Path and query below the origin, e.g. /api/v1/requests?limit=0 */
  path: string
  headers?: Record<string, string>
  body?: string | Uint8Array
  /** 'manual': a redirect is the answer (by default SELF follows it, as a browser would). */
  redirect?: 'manual'
}

export interface Answer {
  status: number
  headers: Headers
  text: string
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown
}

export async function send(call: Call): Promise<Answer> {
  const res = await SELF.fetch(`${call.origin ?? 'http://localhost'}${call.path}`, {
    method: call.method,
    headers: call.headers ?? {},
    body: call.body ?? null,
    ...(call.redirect ? { redirect: call.redirect } : {}),
  })
  const text = await res.text()
  recordResponse(`${call.method} ${call.path.slice(0, 200)}`, res.status, res.headers, text)
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: res.status, headers: res.headers, text, json }
}

/** Runs `work` over `items`, at most `limit` at a time, keeping the order of results. */
export async function mapBounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await work(items[index]!)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` })
export const jsonHeaders = (token: string, extra: Record<string, string> = {}) => ({
  ...bearer(token),
  'Content-Type': 'application/json',
  ...extra,
})
