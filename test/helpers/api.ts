// Black-box calls to the worker's /api/v1 through SELF, and readers of the contract's bodies.

import { SELF } from 'cloudflare:test'
import { expect } from 'vitest'
import type { JsonBody } from './json'

export interface ApiCall {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE'
  token?: string
  body?: unknown
  idempotencyKey?: string
  headers?: Record<string, string>
}

export interface ApiResult {
  status: number
  headers: Headers
  // The body as JSON; tests read it field by field, asserting as they go.
  body: JsonBody
}

export async function api(path: string, call: ApiCall = {}): Promise<ApiResult> {
  const headers = new Headers(call.headers)
  if (call.token !== undefined) headers.set('Authorization', `Bearer ${call.token}`)
  if (call.idempotencyKey !== undefined) headers.set('Idempotency-Key', call.idempotencyKey)
  let body: string | undefined
  if (call.body !== undefined) {
    body = JSON.stringify(call.body)
    if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json')
  }
  const res = await SELF.fetch(`http://localhost/api/v1${path}`, { method: call.method ?? 'GET', headers, body })
  const text = await res.text()
  let parsed: Record<string, unknown> = {}
  if (text.length > 0) {
    try {
      parsed = JSON.parse(text) as Record<string, unknown>
    } catch {
      parsed = { unparsed: text }
    }
  }
  return { status: res.status, headers: res.headers, body: parsed }
}

let keyCounter = 0
/** A fresh, valid Idempotency-Key. */
export function newKey(): string {
  keyCounter += 1
  return `test-${Date.now().toString(36)}-${keyCounter}-${crypto.randomUUID()}`
}

/** Asserts a `{code, message}` error body with the given status and code. */
export function expectError(res: ApiResult, status: number, code: string): void {
  expect({ status: res.status, code: res.body.code }).toEqual({ status, code })
  expect(typeof res.body.message).toBe('string')
  expect(String(res.body.message).length).toBeGreaterThan(0)
}

/** Asserts a 422 validation body with an item whose `loc` starts with `locPrefix`. */
export function expectDetail(res: ApiResult, locPrefix: (string | number)[]): void {
  expect(res.status).toBe(422)
  expect(Array.isArray(res.body.detail)).toBe(true)
  const items = res.body.detail as { loc: unknown[]; msg: unknown; type: unknown }[]
  for (const item of items) {
    expect(typeof item.msg).toBe('string')
    expect(typeof item.type).toBe('string')
  }
  const locs = items.map((i) => i.loc)
  const match = items.find((i) => locPrefix.every((part, idx) => i.loc[idx] === part))
  expect(match, `no detail item at ${JSON.stringify(locPrefix)}; got ${JSON.stringify(locs)}`).toBeDefined()
}
