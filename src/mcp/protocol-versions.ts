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

/** The most of a client's version value an answer or a log line repeats. */
const ECHOED_VERSION_MAX = 32

/**
 * A client's version value as an answer may repeat it: letters, digits, `.`, `-` and `_` only,
 * at most ECHOED_VERSION_MAX of them (`…` when cut), so a header never carries markup, control
 * characters or a payload into the answer or the log.
 */
export function echoedVersion(value: string): string {
  const clean = value.replace(/[^A-Za-z0-9._-]/g, '')
  return clean.length > ECHOED_VERSION_MAX ? `${clean.slice(0, ECHOED_VERSION_MAX)}…` : clean
}

const refusalText = (requested: string) =>
  `Bad Request: Unsupported protocol version: ${requested} (supported versions: ${SERVED_PROTOCOL_VERSIONS.join(', ')})`

/**
 * The refusal of a request whose `MCP-Protocol-Version` header names a version this endpoint does
 * not serve and whose messages carry no `_meta` version, before the SDK sees it (which answered
 * -32602 "missing _meta" for a version it took for a modern one, and repeated the header whole):
 * 400, the UnsupportedProtocolVersion code -32022, naming every served version, the value echoed
 * bounded and sanitised. Null when the header is absent or served.
 */
export function unsupportedVersionRefusal(request: Request, messages: unknown[]): Response | null {
  const header = request.headers.get('MCP-Protocol-Version')
  if (header === null || SERVED_PROTOCOL_VERSIONS.includes(header.trim())) return null
  // A 2026-style request names its version in `_meta` too; the SDK refuses those with -32022 itself.
  if (messages.some(namesVersionInMeta)) return null
  const requested = echoedVersion(header)
  const first = messages.length === 1 && isObject(messages[0]) ? messages[0].id : null
  const id = typeof first === 'string' || typeof first === 'number' ? first : null
  const error = { code: -32022, message: refusalText(requested), data: { supported: [...SERVED_PROTOCOL_VERSIONS], requested } }
  return Response.json({ jsonrpc: '2.0', id, error }, { status: 400 })
}

function namesVersionInMeta(message: unknown): boolean {
  const params = isObject(message) ? message.params : null
  const meta = isObject(params) ? params._meta : null
  return isObject(meta) && typeof meta['io.modelcontextprotocol/protocolVersion'] === 'string'
}

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
    const requested = echoedVersion(refused[1] ?? '')
    return {
      ...message,
      error: { ...error, message: refusalText(requested), data: { supported: [...SERVED_PROTOCOL_VERSIONS], requested } },
    }
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
