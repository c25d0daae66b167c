// URL-mode elicitation (MCP 2025-11-25) from a stateless server. When a tool's result needs the
// user on one of the service's pages (an auto_book request's approval), a client that declared
// `elicitation: { url: {} }` is also asked to open that page. The tool's result is never held
// back or replaced: the `elicitation/create` request travels on the same response stream just
// before it, and the client's answer (accept, decline, cancel) changes nothing, since approval
// happens only on the page, after the user signs in.
//
// A stateless 2025-era server sees the client's capabilities only in `initialize`, so the answer
// to an initialize that declares URL mode carries an Mcp-Session-Id naming that capability; the
// client sends it back with every later request. Nothing is stored: the id is the whole record,
// and a client can only ever claim a capability for itself.

const ELICITATION_ID_PREFIX = 'tw-elicit-'
const URL_MODE_SESSION = /^tw-[0-9a-f-]{36}-elicit-url$/

export interface UrlElicitation {
  url: string
  message: string
  /**
   * The elicitation's id, derived from what the user is asked to do (the approval of one revision
   * of one request), so the completion notice can name it later without anything stored.
   */
  id: string
}

/** The elicitation id of the approval of this revision of this request. */
export function approvalElicitationId(requestId: string, revision: number): string {
  return `approval-${requestId}-r${revision}`
}

type JsonRpc = Record<string, unknown>

const isObject = (value: unknown): value is JsonRpc => typeof value === 'object' && value !== null && !Array.isArray(value)

/** URL mode first appears in this revision; an older client never gets it, whatever it declares. */
const URL_MODE_SINCE = '2025-11-25'

/**
 * Whether this initialize request declares URL-mode elicitation, in a version that defines it
 * (revisions are dates, so they compare as text; a version newer than any 2025 one is answered
 * with 2025-11-25 by the SDK's negotiation).
 */
export function declaresUrlElicitation(message: unknown): boolean {
  if (!isObject(message) || message.method !== 'initialize' || !isObject(message.params)) return false
  const version = message.params.protocolVersion
  if (typeof version !== 'string' || version < URL_MODE_SINCE) return false
  const capabilities = message.params.capabilities
  return isObject(capabilities) && isObject(capabilities.elicitation) && isObject(capabilities.elicitation.url)
}

/** The session id that tells later requests the client can open URLs. */
export function urlModeSessionId(): string {
  return `tw-${crypto.randomUUID()}-elicit-url`
}

/** Whether the request comes from a client that declared URL-mode elicitation at initialize. */
export function canElicitUrl(request: Request): boolean {
  return (
    URL_MODE_SESSION.test(request.headers.get('Mcp-Session-Id') ?? '') &&
    (request.headers.get('Accept') ?? '').includes('text/event-stream')
  )
}

/** Whether the messages are only the client's answers to our elicitations (nothing to serve). */
export function onlyElicitationAnswers(messages: unknown[]): boolean {
  return (
    messages.length > 0 &&
    messages.every(
      (m) =>
        isObject(m) &&
        !('method' in m) &&
        typeof m.id === 'string' &&
        m.id.startsWith(ELICITATION_ID_PREFIX) &&
        ('result' in m || 'error' in m),
    )
  )
}

function sseEvent(elicitation: UrlElicitation): string {
  const request = {
    jsonrpc: '2.0',
    id: `${ELICITATION_ID_PREFIX}${crypto.randomUUID()}`,
    method: 'elicitation/create',
    params: { mode: 'url', elicitationId: elicitation.id, url: elicitation.url, message: elicitation.message },
  }
  return `event: message\ndata: ${JSON.stringify(request)}\n\n`
}

/**
 * `notifications/elicitation/complete` (2025-11-25) for an approval the user gave on the page. A
 * stateless server can only say it on a later response to the same client, so each tools/call
 * response stream of a URL-mode client carries it, for a day after the approval; clients ignore
 * ids they do not know or already saw complete (2025-11-25, client/elicitation, URL mode).
 */
function completionEvent(elicitationId: string): string {
  const notification = { jsonrpc: '2.0', method: 'notifications/elicitation/complete', params: { elicitationId } }
  return `event: message\ndata: ${JSON.stringify(notification)}\n\n`
}

/**
 * The tools/call response with each elicitation the tool asked for sent ahead of the next event
 * of the stream, that is, before the tool's result. Only an SSE response can carry them.
 */
export function withElicitations(response: Response, asked: UrlElicitation[], completed: string[] = []): Response {
  if (!response.body || !(response.headers.get('Content-Type') ?? '').includes('text/event-stream')) return response
  const encoder = new TextEncoder()
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        for (const id of completed.splice(0)) controller.enqueue(encoder.encode(completionEvent(id)))
        for (const elicitation of asked.splice(0)) controller.enqueue(encoder.encode(sseEvent(elicitation)))
        controller.enqueue(chunk)
      },
    }),
  )
  return new Response(body, response)
}
