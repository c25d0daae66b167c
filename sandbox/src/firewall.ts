// What the platform's CDN/WAF does before a call reaches the API (shared/reference/resy-api.md
// §7 and §10): a call without a browser User-Agent gets an HTTP 500 with an empty body (clients
// sending a library default got exactly that: `lgrees` until 2a2578d, `jeffknaide/resy-bot#11`).
// The sandbox's own rule, written from the evidence, not shared with the client.
import type { BlockStyle } from './schemas'

// A browser's User-Agent: the Mozilla/5.0 preamble, an engine token, a browser product token,
// and nothing that names a script, a library or a headless browser.
const PREAMBLE = /^Mozilla\/5\.0 \((?:Windows NT|Macintosh|X11|Linux)[^)]*\) /
const ENGINE = /(?:AppleWebKit\/\d[\d.]* \(KHTML, like Gecko\)|Gecko\/\d{8}|Gecko\/20100101)/
const PRODUCT = /(?:Chrome\/\d{2,3}\.\d+\.\d+\.\d+ Safari\/\d[\d.]*|Firefox\/\d{2,3}\.\d|Version\/\d+[\d.]* Safari\/\d[\d.]*)/
const SCRIPTED = /headless|bot|crawl|spider|python|curl|wget|node|undici|axios|okhttp|go-http|java|postman|insomnia|tablewatch/i

export function looksLikeABrowser(userAgent: string | undefined): boolean {
  if (!userAgent) return false
  return PREAMBLE.test(userAgent) && ENGINE.test(userAgent) && PRODUCT.test(userAgent) && !SCRIPTED.test(userAgent)
}

/** The firewall's refusal: a 500 with nothing in the body (no JSON, no content type). */
export const emptyBody500 = () => new Response(null, { status: 500 })

/**
 * What a blocked client gets instead of the API (§10): an empty-body 500 for a blocked IP
 * ([idx 22674018902]), an HTML 403 page, CloudFront's error with `X-Cache: Error from cloudfront`
 * ([idx 39233085540]), or an Imperva challenge page (`jwilli97/chi-chi`), which answers 200.
 */
export function blockedAnswer(style: BlockStyle): Response {
  const html = (status: number, body: string, headers: Record<string, string> = {}) =>
    new Response(body, { status, headers: { 'Content-Type': 'text/html; charset=utf-8', ...headers } })
  switch (style) {
    case 'empty_500':
      return emptyBody500()
    case 'html_403':
      return html(403, '<html><head><title>403 Forbidden</title></head><body><center><h1>403 Forbidden</h1></center></body></html>')
    case 'cloudfront':
      return html(
        403,
        '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"><HTML><HEAD><TITLE>ERROR: The request could not be satisfied</TITLE></HEAD><BODY><H1>403 ERROR</H1><H2>The request could not be satisfied.</H2></BODY></HTML>',
        { 'X-Cache': 'Error from cloudfront', Via: '1.1 0123456789abcdef.cloudfront.net (CloudFront)' },
      )
    case 'imperva':
      return html(
        200,
        '<html><head><META NAME="robots" CONTENT="noindex,nofollow"><script src="/_Incapsula_Resource?SWJIYLWA=5074a744e2e3d891814e9a2dace20bd4"></script></head><body></body></html>',
        { 'X-Iinfo': '12-34567890-0 0NNN RT(1700000000000 0) q(0 -1 -1 -1) r(0 -1)', 'X-CDN': 'Imperva' },
      )
  }
}
