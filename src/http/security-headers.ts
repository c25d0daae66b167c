// Security headers on every response of the service, pages, API, MCP and OAuth alike, set at
// the top so no route can forget them. A route that needs its own value (the consent page's
// CSP, a static file's caching) sets it, and the default leaves it alone.
import type { MiddlewareHandler } from 'hono'
import { secureHeaders } from 'hono/secure-headers'
import { isLocalHost } from '../auth/session'

/** The pages' policy: own scripts, styles and images only, no framing, forms post here only. */
const PAGE_CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
  objectSrc: ["'none'"],
}

/**
 * The pages' policy with one more origin the form may lead to: the consent page's form ends in
 * a redirect to the client (browsers apply form-action to it). `origin` must be a validated
 * plain origin (src/auth/client-metadata.ts, plainOrigin), never text from a client as it came.
 */
export function pageCspAllowingFormAction(origin: string): string {
  const policy = { ...PAGE_CSP, formAction: [...PAGE_CSP.formAction, origin] }
  return Object.entries(policy)
    .map(([directive, sources]) => `${directive.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)} ${sources.join(' ')}`)
    .join('; ')
}

/** Two years, the preload list's expectation; only sent over https to a public host. */
const HSTS = 'max-age=63072000; includeSubDomains'

const defaults = secureHeaders({
  contentSecurityPolicy: PAGE_CSP,
  xFrameOptions: 'DENY',
  referrerPolicy: 'same-origin',
  // Sent below, only where it means something (production, over https).
  strictTransportSecurity: false,
  overwrite: false,
})

/**
 * The library's headers (CSP, X-Frame-Options, nosniff, Referrer-Policy and the cross-origin
 * ones) where a route did not set them; `Cache-Control: no-store` unless a route chose a
 * caching policy (tokens, CSRF tokens and private pages must never be cached); HSTS on https.
 */
export function securityHeaders(): MiddlewareHandler {
  return async function securityHeadersMiddleware(c, next) {
    await next()
    // A WebSocket upgrade (a paired device's connection) is no page, and its response
    // can be neither copied nor changed: it passes as it is.
    if (c.res.status === 101) return
    // A copy whose headers can be changed: a response from a binding or fetch has immutable ones.
    c.res = new Response(c.res.body, c.res)
    if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store')
    const url = new URL(c.req.url)
    if (url.protocol === 'https:' && !isLocalHost(c.req.url)) c.res.headers.set('Strict-Transport-Security', HSTS)
    await defaults(c, async () => {})
  }
}
