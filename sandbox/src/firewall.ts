// What the platform's CDN/WAF (Imperva) does before a call reaches the API
// (docs/platform.md, "Requests and headers" and "The CDN"). A call without a browser User-Agent gets an HTTP
// 500 whose body is the plain text `Internal Server Error` ([idx 52679252770]: the blocked
// login of a Feb 2026 write-up; clients sending a library default got 500s: `lgrees` until
// 2a2578d, `jeffknaide/resy-bot#11`). So does a /3/book without the web app's Origin and Referer
// (`Alkaar#122`, 2023-05-12: "the final booking post request now needs a referer header or else it
// fails with an Internal Server Error"; Origin since Apr 2023, `Alkaar#104`, `jeffknaide/resy-bot#3`).
// The sandbox's own rules, written from the evidence, not shared with the client.
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

/** A 500 with nothing in the body (no JSON, no content type): how a blocked IP is answered ([idx 22674018902]). */
export const emptyBody500 = () => new Response(null, { status: 500 })

/** Imperva's refusal of a client it does not like: a 500 with the plain text `Internal Server Error` (docs/platform.md, "The CDN"). */
export const plainText500 = () =>
  new Response('Internal Server Error', { status: 500, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })

/** The web app's origins: resy.com, and the booking widget's (both used by working clients, docs/platform.md, "Requests and headers"). */
const WEB_ORIGINS = ['https://resy.com', 'https://widgets.resy.com']

/**
 * Whether a /3/book carries the web app's Origin and Referer: a web origin, and a Referer on one.
 * Stricter than the evidence (which shows only that they must be there): no working client sends
 * other values, and a client sending them would be told apart by the firewall as easily.
 */
export function looksLikeTheWebApp(origin: string | undefined, referer: string | undefined): boolean {
  if (!origin || !referer || !WEB_ORIGINS.includes(origin)) return false
  return WEB_ORIGINS.some((o) => referer === `${o}/` || referer.startsWith(`${o}/`))
}

/**
 * What a blocked client gets instead of the API (docs/platform.md, "The CDN"): Imperva's plain-text 500, an empty-body 500 for a blocked IP
 * ([idx 22674018902]), an HTML 403 page, CloudFront's error with `X-Cache: Error from cloudfront`
 * ([idx 39233085540]), or an Imperva challenge page (`jwilli97/chi-chi`), which answers 200.
 */
export function blockedAnswer(style: BlockStyle): Response {
  const html = (status: number, body: string, headers: Record<string, string> = {}) =>
    new Response(body, { status, headers: { 'Content-Type': 'text/html; charset=utf-8', ...headers } })
  switch (style) {
    case 'empty_500':
      return emptyBody500()
    case 'plain_500':
      return plainText500()
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
        // X-CDN and X-Iinfo are added to this as to every answer (cdn.ts): they are no sign of a block.
        {},
      )
  }
}

/**
 * Imperva's cookie challenge (`"unknown_clients_challenge":"cookies"`,
 * imperva/terraform-provider-incapsula#487): a page that sets its cookies (cdn.ts adds them) and
 * asks the client to come again with them, instead of the API's answer.
 */
export const cookieChallenge = () =>
  new Response(
    '<html><head><META NAME="robots" CONTENT="noindex,nofollow"><script src="/_Incapsula_Resource?SWJIYLWA=719d34d31c8e3a6e6fffd425f7e032f3"></script></head><body></body></html>',
    { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8' } },
  )

/**
 * The answer to a CORS preflight (OPTIONS): 204, with the CORS headers for the web app's origins
 * only. Measured from a home address: `OPTIONS /4/auth/mobile` 204 ([idx 60497690475]); which
 * origins the platform allows is not public: the web app's is a guess (docs/decisions/platform-account.md).
 */
export function preflight(origin: string | undefined): Response {
  const headers = new Headers()
  if (origin && WEB_ORIGINS.includes(origin)) {
    headers.set('Access-Control-Allow-Origin', origin)
    headers.set('Access-Control-Allow-Credentials', 'true')
    headers.set('Access-Control-Allow-Methods', 'GET, POST, OPTIONS')
    headers.set(
      'Access-Control-Allow-Headers',
      'Authorization, Content-Type, X-Origin, X-Resy-Auth-Token, X-Resy-Universal-Auth, Cache-Control',
    )
    headers.set('Vary', 'Origin')
  }
  return new Response(null, { status: 204, headers })
}
