// CSRF protection for every web form, in two layers:
// 1. A POST (any unsafe method) a browser marks as coming from another site is refused:
//    `Sec-Fetch-Site` other than same-origin (or none, a user's own action), or an `Origin` that
//    is not this request's origin. Clients that send neither (scripts, old browsers) go on to 2.
// 2. A token. Signed in: an HMAC of the session's csrf_secret, so it changes with each session
//    and needs no storage. Signed out (sign-in, sign-up): a double-submit cookie whose value the
//    form repeats, itself signed with CSRF_SECRET and dated, so only a token this service issued
//    in the last 12 hours counts; the cookie is `__Host-` outside local http.
import type { Context, MiddlewareHandler } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { equalStrings, hmacSha256Base64Url, randomBytes, toBase64Url } from './bytes'
import { cookieIsSecure, cookiePrefix } from './session'

export const CSRF_FIELD = '_csrf'
export const CSRF_HEADER = 'x-csrf-token'
const ANON_CSRF_COOKIE = 'tw_csrf'
/** How long a signed-out form stays usable. */
const ANON_TOKEN_TTL_MS = 12 * 60 * 60 * 1000

declare module 'hono' {
  interface ContextVariableMap {
    /** The token every form on this page must send back in the `_csrf` field. */
    csrfToken: string
  }
}

type CsrfEnv = { Bindings: Cloudflare.Env }

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
const ANON_LABEL = 'tablewatch signed-out form'

function anonMac(secret: string, issuedAt: string, nonce: string): Promise<string> {
  return hmacSha256Base64Url(secret, `${ANON_LABEL}|${issuedAt}|${nonce}`)
}

/** `issuedAt.nonce.mac`, issuedAt in base-36 milliseconds. */
async function newAnonToken(secret: string, now: number): Promise<string> {
  const issuedAt = now.toString(36)
  const nonce = toBase64Url(randomBytes(24))
  return `${issuedAt}.${nonce}.${await anonMac(secret, issuedAt, nonce)}`
}

async function isValidAnonToken(secret: string, token: string, now: number): Promise<boolean> {
  const [issuedAt, nonce, mac, ...rest] = token.split('.')
  if (!issuedAt || !nonce || !mac || rest.length > 0) return false
  const age = now - Number.parseInt(issuedAt, 36)
  if (!(age >= 0 && age < ANON_TOKEN_TTL_MS)) return false
  return equalStrings(mac, await anonMac(secret, issuedAt, nonce))
}

async function expectedToken(c: Context<CsrfEnv>): Promise<{ token: string; fresh: boolean }> {
  const session = c.get('session')
  if (session) return { token: await hmacSha256Base64Url(session.csrfSecret, 'tablewatch web form'), fresh: false }
  const secret = c.env.CSRF_SECRET
  const now = Date.now()
  const existing = getCookie(c, ANON_CSRF_COOKIE, cookiePrefix(c))
  if (existing && (await isValidAnonToken(secret, existing, now))) return { token: existing, fresh: false }
  return { token: await newAnonToken(secret, now), fresh: true }
}

/** True when the browser says the request comes from another site (see the header comment). */
function fromAnotherSite(c: Context): boolean {
  const site = c.req.header('sec-fetch-site')
  if (site && site !== 'same-origin' && site !== 'none') return true
  const origin = c.req.header('origin')
  return origin !== undefined && origin !== new URL(c.req.url).origin
}

async function submittedToken(c: Context): Promise<string | undefined> {
  const header = c.req.header(CSRF_HEADER)
  if (header) return header
  const type = c.req.header('content-type') ?? ''
  if (!type.startsWith('application/x-www-form-urlencoded') && !type.startsWith('multipart/form-data')) return undefined
  // A body that cannot be parsed carries no token: refused like a missing one, never a 500.
  const body = await c.req.parseBody().catch(() => null)
  const value = body?.[CSRF_FIELD]
  return typeof value === 'string' ? value : undefined
}

/**
 * Sets `csrfToken` for the page and refuses any unsafe request from another site or whose token
 * does not match. Must run after sessionUser().
 */
export function csrfProtection(options: { onRefused: (c: Context) => Response | Promise<Response> }): MiddlewareHandler<CsrfEnv> {
  return async function csrfMiddleware(c, next) {
    const expected = await expectedToken(c)
    if (expected.fresh) {
      setCookie(c, ANON_CSRF_COOKIE, expected.token, {
        prefix: cookiePrefix(c),
        path: '/',
        httpOnly: true,
        sameSite: 'Lax',
        secure: cookieIsSecure(c),
      })
    }
    c.set('csrfToken', expected.token)
    if (SAFE_METHODS.has(c.req.method)) return next()
    // Refused before the body is read: another site's form, or no session and no token cookie
    // (certain to fail), so an anonymous flood of forms costs no parsing.
    if (fromAnotherSite(c) || expected.fresh) return options.onRefused(c)
    const submitted = await submittedToken(c)
    if (!submitted || !equalStrings(submitted, expected.token)) return options.onRefused(c)
    return next()
  }
}
