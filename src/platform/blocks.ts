// Firewall and CDN blocks: answers that come from in front of the platform's API, not from it
// (docs/platform.md, "The CDN"). They are neither "unavailable" (a retry soon will not
// help, it makes the block worse) nor 429 (no Retry-After, no API behind them). Pure.
//
// Decided by status and body, never by a header alone: the platform sits behind Imperva,
// and `X-CDN: Imperva`, `X-Iinfo` and the `visid_incap_*` / `incap_ses_*` / `nlbi_*` cookies are
// on every answer, successful ones included ([idx 52679252770]: "X-CDN: Imperva is still present"
// on the working 200 login; [idx 69602287299], [idx 25069970681], [idx 55823720965],
// [idx 40939053776]). An answer whose body is the API's JSON came from the API.

export type BlockSignal =
  /** A CloudFront error page, `X-Cache: Error from cloudfront` ("max requests", [idx 39233085540]). */
  | 'cloudfront'
  /** An Imperva/Incapsula challenge page (`jwilli97/chi-chi`), often with status 200. */
  | 'imperva'
  /** HTTP 500 with the plain-text body `Internal Server Error`: Imperva refusing a client it does not like ([idx 52679252770]). */
  | 'plain_500'
  /** HTTP 500 with an empty body: how a blocked IP is answered ([idx 22674018902]). */
  | 'empty_500'
  /** Any other HTML page instead of the API's JSON, at any status (a 403 page at book, `lgrees#15`). */
  | 'html_page'

const IMPERVA_BODY = /_Incapsula_Resource|Incapsula incident|Request unsuccessful\. Incapsula/i
const PLAIN_500 = /^Internal Server Error\.?$/i

/** The kind of block this answer is, or null when it came from the API itself. */
export function blockSignalOf(status: number, headers: Headers, text: string): BlockSignal | null {
  if (isApiJson(text)) return null
  if (/error from cloudfront/i.test(headers.get('X-Cache') ?? '')) return 'cloudfront'
  if (IMPERVA_BODY.test(text)) return 'imperva'
  // A 415 or 400 page is a server's answer about the call's format (docs/platform.md, "Booking"), not a firewall's.
  if (status === 415 || status === 400) return null
  if (looksLikeHtml(headers, text)) return 'html_page'
  if (status === 500 && text.trim() === '') return 'empty_500'
  if (status === 500 && PLAIN_500.test(text.trim())) return 'plain_500'
  return null
}

/** A JSON object or array: what the API answers, errors included (`{"status":419,"message":…}`). */
function isApiJson(text: string): boolean {
  const start = text.trimStart()[0]
  if (start !== '{' && start !== '[') return false
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

function looksLikeHtml(headers: Headers, text: string): boolean {
  return /text\/html/i.test(headers.get('Content-Type') ?? '') || /^\s*<(?:!doctype|html|head|body)/i.test(text)
}

/** Words for the trace and logs. */
export const BLOCK_WORDS: Record<BlockSignal, string> = {
  cloudfront: 'a CloudFront error (X-Cache)',
  imperva: 'an Imperva challenge page',
  plain_500: 'a plain-text HTTP 500 from the firewall',
  empty_500: 'an empty HTTP 500',
  html_page: 'an HTML page instead of the API',
}
