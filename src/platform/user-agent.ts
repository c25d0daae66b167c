// The User-Agent every platform call carries. The platform's firewall (Imperva) answers calls
// without a browser User-Agent with a 500 whose body is the plain text `Internal Server Error`
// ([idx 52679252770]; docs/platform.md, "Requests and headers": every client known to work sends a
// Chrome string, e.g. `Cierge:resy/client.go`; library defaults got 500s). A
// deployment may set its own (PLATFORM_USER_AGENT), but only a browser one: anything else is
// replaced by the default, so the client never sends a product or library User-Agent.

/** A current desktop Chrome on Windows (Chrome's reduced UA format: minor versions are zeros). */
export const DEFAULT_USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/153.0.0.0 Safari/537.36'

const BROWSER = /^Mozilla\/5\.0 \([^)]+\) (?:AppleWebKit\/[\d.]+ \(KHTML, like Gecko\)|Gecko\/\d+)/
const PRODUCT = /\b(?:Chrome|Firefox|Edg|Version)\/\d+/
const NOT_A_PERSON = /headless|bot\b|crawl|spider|python|curl|wget|node|undici|axios|okhttp|go-http|java\//i

export function isBrowserUserAgent(value: string): boolean {
  return BROWSER.test(value) && PRODUCT.test(value) && !NOT_A_PERSON.test(value)
}

/** The configured User-Agent when it is a browser's, else the default. */
export function userAgentFor(configured: string | undefined): string {
  const value = configured?.trim()
  return value && isBrowserUserAgent(value) ? value : DEFAULT_USER_AGENT
}
