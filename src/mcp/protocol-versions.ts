// Every protocol version /mcp serves, in the three places a client learns them: the 2026-07-28
// `server/discover` result (`supportedVersions`), the `-32022` UnsupportedProtocolVersion
// error (`data.supported`), and the 400 a 2025-era request with an unsupported
// `MCP-Protocol-Version` header gets from the transport (its message, plus the same `data`). The SDK (`@modelcontextprotocol/server` 2.4.0, `_ondiscover` in
// dist/mcp-*.d.mts) lists only the modern revisions there, because 2025-era versions are
// negotiated through `initialize`; but this endpoint also serves those (the stateless legacy lane
// of `agents`' handler), and a client that falls back needs to know it can.
// The answer is rewritten after the SDK built it, so nothing else of it changes.
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server'

/** The modern revision first (what a 2026 client should pick), then the 2025-era ones, newest first. */
const SERVED_PROTOCOL_VERSIONS: readonly string[] = ['2026-07-28', ...SUPPORTED_PROTOCOL_VERSIONS]

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The transport's refusal of an unsupported `MCP-Protocol-Version` header (SDK 2.4.0, validateProtocolVersion). */
const HEADER_REFUSAL = /^Bad Request: Unsupported protocol version: (.*) \(supported versions: [^)]*\)$/s

function withAllVersions(message: unknown): unknown {
  if (!isObject(message)) return message
  const { result, error } = message
  if (isObject(result) && Array.isArray(result.supportedVersions)) {
    return { ...message, result: { ...result, supportedVersions: [...SERVED_PROTOCOL_VERSIONS] } }
  }
  if (isObject(error) && error.code === -32022 && isObject(error.data)) {
    return { ...message, error: { ...error, data: { ...error.data, supported: [...SERVED_PROTOCOL_VERSIONS] } } }
  }
  const refused = isObject(error) && typeof error.message === 'string' ? HEADER_REFUSAL.exec(error.message) : null
  if (isObject(error) && refused) {
    const requested = refused[1] ?? ''
    const text = `Bad Request: Unsupported protocol version: ${requested} (supported versions: ${SERVED_PROTOCOL_VERSIONS.join(', ')})`
    return { ...message, error: { ...error, message: text, data: { supported: [...SERVED_PROTOCOL_VERSIONS], requested } } }
  }
  return message
}

function rewriteJson(text: string): string {
  try {
    const parsed: unknown = JSON.parse(text)
    return JSON.stringify(Array.isArray(parsed) ? parsed.map(withAllVersions) : withAllVersions(parsed))
  } catch {
    return text
  }
}

/** Whether this answer may carry a version list: a discovery, or a refusal (-32022 is a 400). */
export function mayListVersions(messages: unknown[], response: Response): boolean {
  return response.status === 400 || messages.some((m) => isObject(m) && m.method === 'server/discover')
}

/** The answer with every served version listed, for JSON and single-shot SSE bodies alike. */
export async function listingEveryVersion(response: Response): Promise<Response> {
  const type = response.headers.get('Content-Type') ?? ''
  if (!response.body || !(type.includes('application/json') || type.includes('text/event-stream'))) return response
  const text = await response.text()
  const body = type.includes('application/json')
    ? rewriteJson(text)
    : text
        .split('\n')
        .map((line) => (line.startsWith('data:') ? `data: ${rewriteJson(line.slice(5).trim())}` : line))
        .join('\n')
  const headers = new Headers(response.headers)
  headers.delete('Content-Length')
  return new Response(body, { status: response.status, statusText: response.statusText, headers })
}
