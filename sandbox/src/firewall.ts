// What the platform's CDN/WAF does before a call reaches the API (shared/reference/resy-api.md
// §7 and §10): a call without a browser User-Agent gets an HTTP 500 with an empty body (clients
// sending a library default got exactly that: `lgrees` until 2a2578d, `jeffknaide/resy-bot#11`).
// The sandbox's own rule, written from the evidence, not shared with the client.

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
