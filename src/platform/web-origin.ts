// The web origin every platform call names in `Origin` and `Referer`, as the web app's own calls
// do. The platform's firewall answers a /3/book without a Referer with a 500 (`Alkaar#122`,
// 2023-05-12: "the final booking post request now needs a referer header or else it fails with an
// Internal Server Error"; Origin since Apr 2023, `Alkaar#104`, `jeffknaide/resy-bot#3`), and the
// Feb 2026 write-up of a working login sends `Origin: https://resy.com`, `Referer: https://resy.com/`
// on every call ([idx 52679252770]; docs/platform.md, "Requests and headers"). Working clients also use
// the booking widget's origin (`Alkaar:ResyApi.scala`), so a deployment may choose that one
// (PLATFORM_WEB_ORIGIN); anything else is replaced by the default, as with the User-Agent.

const WEB_ORIGINS = ['https://resy.com', 'https://widgets.resy.com'] as const
export type WebOrigin = (typeof WEB_ORIGINS)[number]

const DEFAULT_WEB_ORIGIN: WebOrigin = 'https://resy.com'

const isWebOrigin = (value: string): value is WebOrigin => (WEB_ORIGINS as readonly string[]).includes(value)

/** The configured origin when it is one of the platform's web origins, else the default. */
export function webOriginFor(configured: string | undefined): WebOrigin {
  const value = configured?.trim().replace(/\/+$/, '') ?? ''
  return isWebOrigin(value) ? value : DEFAULT_WEB_ORIGIN
}

/** The headers the web app sends with every API call, besides the User-Agent. */
export function webAppHeaders(origin: WebOrigin): Record<string, string> {
  return { Accept: 'application/json, text/plain, */*', Origin: origin, Referer: `${origin}/` }
}
