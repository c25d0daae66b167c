// Calls to /mcp (stateless Streamable HTTP, one JSON-RPC message per POST) through the same
// recorded `send`, and a reading of every answer: an HTTP refusal, a JSON-RPC error, a tool
// error (whose text must be the contract's `{code, message}`), or a success.
import { z } from 'zod'
import { NamedError } from './contract'
import { type Answer, type Call, send } from './http'

/** The canonical resource (PUBLIC_BASE_URL in the test pool); SELF sends no Host of its own. */
export const MCP_ORIGIN = 'http://localhost:8787'
export const PROTOCOL_VERSION = '2025-06-18'

export function mcpHeaders(token: string | undefined, extra: Record<string, string> = {}): Record<string, string> {
  return {
    Host: 'localhost:8787',
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': PROTOCOL_VERSION,
    ...(token ? { Authorization: `Bearer ${token}` } : {}),
    ...extra,
  }
}

let nextId = 1
export const rpc = (method: string, params?: unknown) => ({
  jsonrpc: '2.0',
  id: nextId++,
  method,
  ...(params === undefined ? {} : { params }),
})

export function toolCall(token: string, name: string, args: unknown): Call {
  return {
    origin: MCP_ORIGIN,
    method: 'POST',
    path: '/mcp',
    headers: mcpHeaders(token),
    body: JSON.stringify(rpc('tools/call', { name, arguments: args })),
  }
}

const RpcError = z.object({ code: z.number().int(), message: z.string().min(1) })
const ToolResult = z.object({
  content: z.array(z.object({ type: z.string(), text: z.string().optional() })),
  isError: z.boolean().optional(),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
})
const RpcMessage = z.union([
  z.object({ jsonrpc: z.literal('2.0'), error: RpcError }),
  z.object({ jsonrpc: z.literal('2.0'), result: z.unknown() }),
])

export type McpOutcome =
  | { kind: 'http'; status: number; error: { code: string | number; message: string } | null; challenge: string | null }
  | { kind: 'rpc_error'; code: number; message: string }
  | { kind: 'tool_error'; text: string; error: { code: string; message: string } | null }
  | { kind: 'success'; result: unknown }
  | { kind: 'unreadable'; status: number; text: string }

/** The JSON-RPC message of a JSON or SSE body (the last `data:` line), if any. */
function messageOf(answer: Answer): unknown {
  if ((answer.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const data = answer.text
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .at(-1)
    if (!data) return undefined
    try {
      return JSON.parse(data.slice(5))
    } catch {
      return undefined
    }
  }
  return answer.json
}

export function outcomeOf(answer: Answer): McpOutcome {
  const message = messageOf(answer)
  if (answer.status !== 200) {
    const rpcError = z.object({ error: RpcError }).safeParse(message)
    const named = NamedError.safeParse(message)
    const error = rpcError.success ? rpcError.data.error : named.success ? named.data : null
    return { kind: 'http', status: answer.status, error, challenge: answer.headers.get('www-authenticate') }
  }
  const parsed = RpcMessage.safeParse(message)
  if (!parsed.success) return { kind: 'unreadable', status: answer.status, text: answer.text.slice(0, 300) }
  if ('error' in parsed.data) return { kind: 'rpc_error', ...parsed.data.error }
  const tool = ToolResult.safeParse(parsed.data.result)
  if (tool.success && tool.data.isError) {
    const text = tool.data.content.map((c) => c.text ?? '').join('\n')
    let error: { code: string; message: string } | null = null
    try {
      const named = NamedError.safeParse(JSON.parse(text))
      error = named.success ? named.data : null
    } catch {
      error = null
    }
    return { kind: 'tool_error', text, error }
  }
  return { kind: 'success', result: parsed.data.result }
}

export async function mcpSend(call: Call): Promise<McpOutcome> {
  return outcomeOf(await send(call))
}

/** The served tool list: names and input schemas, as an MCP host reads them. */
export async function listTools(token: string): Promise<{ name: string; inputSchema: unknown }[]> {
  const outcome = await mcpSend({
    origin: MCP_ORIGIN,
    method: 'POST',
    path: '/mcp',
    headers: mcpHeaders(token),
    body: JSON.stringify(rpc('tools/list')),
  })
  if (outcome.kind !== 'success') throw new Error(`tools/list answered ${JSON.stringify(outcome)}`)
  return z.object({ tools: z.array(z.object({ name: z.string(), inputSchema: z.unknown() })) }).parse(outcome.result).tools
}
