// CSRF protection for every web form. Signed in: the token is an HMAC of the session's
// csrf_secret, so it changes with each session and needs no storage. Signed out (sign-in,
// sign-up): a double-submit cookie whose value the form repeats.
import type { Context, MiddlewareHandler } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { equalStrings, hmacSha256Base64Url, randomBytes, toBase64Url } from './bytes'
import { cookieIsSecure } from './session'

export const CSRF_FIELD = '_csrf'
export const CSRF_HEADER = 'x-csrf-token'
export const ANON_CSRF_COOKIE = 'tw_csrf'

declare module 'hono' {
  interface ContextVariableMap {
    /** The token every form on this page must send back in the `_csrf` field. */
    csrfToken: string
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

async function expectedToken(c: Context): Promise<{ token: string; fresh: boolean }> {
  const session = c.get('session')
  if (session) return { token: await hmacSha256Base64Url(session.csrfSecret, 'tablewatch web form'), fresh: false }
  const existing = getCookie(c, ANON_CSRF_COOKIE)
  if (existing) return { token: existing, fresh: false }
  return { token: toBase64Url(randomBytes(32)), fresh: true }
}

async function submittedToken(c: Context): Promise<string | undefined> {
  const header = c.req.header(CSRF_HEADER)
  if (header) return header
  const type = c.req.header('content-type') ?? ''
  if (!type.startsWith('application/x-www-form-urlencoded') && !type.startsWith('multipart/form-data')) return undefined
  const body = await c.req.parseBody()
  const value = body[CSRF_FIELD]
  return typeof value === 'string' ? value : undefined
}

/**
 * Sets `csrfToken` for the page and refuses any unsafe request whose token does not match.
 * Must run after sessionUser().
 */
export function csrfProtection(options: { onRefused: (c: Context) => Response | Promise<Response> }): MiddlewareHandler {
  return async function csrfMiddleware(c, next) {
    const expected = await expectedToken(c)
    if (expected.fresh) {
      setCookie(c, ANON_CSRF_COOKIE, expected.token, { path: '/', httpOnly: true, sameSite: 'Lax', secure: cookieIsSecure(c) })
    }
    c.set('csrfToken', expected.token)
    if (SAFE_METHODS.has(c.req.method)) return next()
    const submitted = await submittedToken(c)
    if (expected.fresh || !submitted || !equalStrings(submitted, expected.token)) return options.onRefused(c)
    return next()
  }
}
