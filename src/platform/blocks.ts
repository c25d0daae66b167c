// Firewall and CDN blocks: answers that come from in front of the platform's API, not from it
// (shared/reference/resy-api.md §10). They are neither "unavailable" (a retry soon will not help,
// it makes the block worse) nor 429 (no Retry-After, no API behind them). Pure.

export type BlockSignal =
  /** `X-Cache: Error from cloudfront` (reported as "max requests", [idx 39233085540]). */
  | 'cloudfront'
  /** An Imperva/Incapsula challenge page (`jwilli97/chi-chi`), often with status 200. */
  | 'imperva'
  /** HTTP 500 with an empty body: how a blocked IP is answered ([idx 22674018902]). */
  | 'empty_500'
  /** HTTP 403 with an HTML page instead of the API's JSON. */
  | 'html_403'

const IMPERVA_BODY = /_Incapsula_Resource|Incapsula incident|Request unsuccessful\. Incapsula/i

/** The kind of block this answer is, or null when it came from the API itself. */
export function blockSignalOf(status: number, headers: Headers, text: string): BlockSignal | null {
  if (/error from cloudfront/i.test(headers.get('X-Cache') ?? '')) return 'cloudfront'
  if (headers.has('X-Iinfo') || /imperva|incapsula/i.test(headers.get('X-CDN') ?? '') || IMPERVA_BODY.test(text)) return 'imperva'
  if (status === 500 && text.trim() === '') return 'empty_500'
  if (status === 403 && looksLikeHtml(headers, text)) return 'html_403'
  return null
}

function looksLikeHtml(headers: Headers, text: string): boolean {
  return /text\/html/i.test(headers.get('Content-Type') ?? '') || /^\s*<(?:!doctype|html)/i.test(text)
}

/** Words for the trace and logs. */
export const BLOCK_WORDS: Record<BlockSignal, string> = {
  cloudfront: 'a CloudFront error (X-Cache)',
  imperva: 'an Imperva challenge page',
  empty_500: 'an empty HTTP 500',
  html_403: 'an HTML 403 page',
}
