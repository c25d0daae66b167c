// One recorded exchange, redacted (redact.ts), as written under test/platform/fixtures/recorded/.
// What was asked (method, path, query, the headers we sent), what came back (status, every
// header, the body), and what the probe made of it.
import type { Captured } from './capture'
import { REDACTED, redactHeaders, redactJson, redactText } from './redact'
import type { CallName } from './schema-check'
import type { Verdict } from './verdict'

export interface Recording {
  file: string
  call: CallName
  request: {
    method: string
    path: string
    query: Record<string, string>
    headers: [string, string][]
    body: unknown
  }
  response: {
    status: number
    headers: [string, string][]
    /** The JSON, redacted; or the text when the body is not JSON. */
    json?: unknown
    text?: string
  }
  probe: {
    /** The client's schema for this answer (src/platform/wire.ts), or null when the client makes no such call. */
    schema: string | null
    verdict: Verdict
    /** What the client's own block reading (src/platform/blocks.ts) said. */
    clientReadsBlock: string | null
    differences: { against: string; path: string; detail: string }[]
    sandbox: { status: number } | null
  }
}

/** The request body: JSON redacted like an answer; a form's values all replaced (a login's email and password). */
function requestBodyOf(captured: Captured): unknown {
  const { body, headers } = captured.request
  if (body === null || body === '') return null
  if (/application\/x-www-form-urlencoded/.test(headers.get('content-type') ?? ''))
    return Object.fromEntries([...new URLSearchParams(body).keys()].map((k) => [k, REDACTED]))
  try {
    return redactJson(JSON.parse(body))
  } catch {
    return REDACTED
  }
}

export function recordingOf(
  file: string,
  call: CallName,
  captured: Captured,
  json: unknown,
  probe: Omit<Recording['probe'], 'differences'> & { differences: { against: string; path: string; detail: string }[] },
): Recording {
  const { request, response } = captured
  return {
    file,
    call,
    request: {
      method: request.method,
      path: request.url.pathname,
      query: Object.fromEntries(request.url.searchParams),
      headers: redactHeaders(request.headers),
      body: requestBodyOf(captured),
    },
    response: {
      status: response.status,
      headers: redactHeaders(response.headers),
      ...(json === undefined ? { text: redactText(response.text) } : { json: redactJson(json) }),
    },
    probe: { ...probe, differences: probe.differences.map(({ against, path, detail }) => ({ against, path, detail })) },
  }
}
