// A minimal MCP client over SELF for the workerd suites: one JSON-RPC message per POST, as a
// stateless 2025-era Streamable HTTP client sends them, answers read from JSON or SSE bodies.

import { SELF } from 'cloudflare:test'
import type { JsonBody } from '../helpers/json'

/** The canonical MCP resource in tests (PUBLIC_BASE_URL); SELF sends no Host header of its own. */
export const MCP_URL = 'http://localhost:8787/mcp'
export const PROTOCOL_VERSION = '2025-06-18'

export interface RpcResult {
  status: number
  headers: Headers
  /** The JSON-RPC response (result or error), or null when the body held none. */
  message: JsonBody | null
}

let nextId = 1

export async function mcpPost(body: unknown, init: { token?: string; headers?: Record<string, string> } = {}): Promise<RpcResult> {
  const headers = new Headers({
    Host: 'localhost:8787',
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': PROTOCOL_VERSION,
    ...init.headers,
  })
  if (init.token) headers.set('Authorization', `Bearer ${init.token}`)
  const res = await SELF.fetch(MCP_URL, { method: 'POST', headers, body: JSON.stringify(body) })
  const text = await res.text()
  return { status: res.status, headers: res.headers, message: parseBody(text, res.headers.get('content-type') ?? '') }
}

function parseBody(text: string, type: string): JsonBody | null {
  if (text.length === 0) return null
  if (type.includes('text/event-stream')) {
    const data = text
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trim())
      .at(-1)
    return data ? (JSON.parse(data) as JsonBody) : null
  }
  return JSON.parse(text) as JsonBody
}

export function rpc(method: string, params: Record<string, unknown> = {}) {
  return { jsonrpc: '2.0', id: nextId++, method, params }
}

export function initialize(token: string): Promise<RpcResult> {
  return mcpPost(rpc('initialize', { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'test', version: '1' } }), {
    token,
  })
}

export async function listTools(token: string): Promise<JsonBody[]> {
  const res = await mcpPost(rpc('tools/list'), { token })
  if (res.status !== 200 || !res.message?.result) throw new Error(`tools/list failed: ${res.status} ${JSON.stringify(res.message)}`)
  return res.message.result.tools as JsonBody[]
}

export interface ToolOutcome {
  isError: boolean
  structured: JsonBody | undefined
  /** Every text block, in order. */
  texts: string[]
  /** The text blocks joined by newlines. */
  text: string
  /** For tool errors: the contract's `{code, message}` (and `detail` for argument errors) the text carries. */
  error: { code: string; message: string; detail?: unknown[] } | undefined
}

export async function callTool(token: string, name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
  const res = await mcpPost(rpc('tools/call', { name, arguments: args }), { token })
  const result = res.message?.result
  if (res.status !== 200 || !result) throw new Error(`tools/call ${name} failed: ${res.status} ${JSON.stringify(res.message)}`)
  const texts = (result.content as { type: string; text: string }[]).map((c) => c.text)
  const text = texts.join('\n')
  const isError = result.isError === true
  let error: ToolOutcome['error']
  if (isError) {
    try {
      error = JSON.parse(text) as { code: string; message: string; detail?: unknown[] }
    } catch {
      error = undefined
    }
  }
  return { isError, structured: result.structuredContent as JsonBody | undefined, texts, text, error }
}
