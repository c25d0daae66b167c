// What an answer is, judged the way docs/platform.md, "The CDN", says (the status and the
// body, never a header alone), so the probe can stop at the first block instead of pressing on,
// and can say when the client's own reading (src/platform/blocks.ts) disagrees.

export type Verdict =
  /** The API's JSON, at any status. */
  | { kind: 'api' }
  /** In front of the API: the run stops here (asking again keeps a block in place). */
  | { kind: 'block'; why: string }
  /** 429: the platform asks us to slow down; the run stops too. */
  | { kind: 'rate_limited' }
  /** Neither JSON nor a known block (an empty 204, a text error from the API). */
  | { kind: 'other'; why: string }

export function verdictOf(status: number, headers: Headers, text: string, json: unknown): Verdict {
  if (/error from cloudfront/i.test(headers.get('x-cache') ?? '')) return { kind: 'block', why: 'a CloudFront error (X-Cache)' }
  if (json !== undefined) return status === 429 ? { kind: 'rate_limited' } : { kind: 'api' }
  if (status === 429) return { kind: 'rate_limited' }
  const body = text.trim()
  if (status === 500 && body === '') return { kind: 'block', why: 'an empty HTTP 500' }
  if (status === 500 && /^internal server error$/i.test(body))
    return { kind: 'block', why: "Imperva's plain-text 500 (Internal Server Error)" }
  if (/text\/html/i.test(headers.get('content-type') ?? '') || /^<(?:!doctype|html)/i.test(body) || /incapsula/i.test(body))
    return { kind: 'block', why: `an HTML or challenge page (HTTP ${status})` }
  return { kind: 'other', why: body === '' ? `HTTP ${status} with no body` : `HTTP ${status} with a body that is not JSON` }
}
