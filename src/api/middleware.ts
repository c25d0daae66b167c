// Middleware of the REST skin: bearer authentication, scope checks, JSON bodies.
import type { MiddlewareHandler } from 'hono'
import type { Principal } from '../core/principal'
import { requireScope } from '../core/principal'
import type { Scope } from '../core/scopes'
import { AppError } from '../errors'
import type { ApiEnv } from './context'

/** Turns a bearer token into a principal, or throws the contract's 401. */
export type TokenResolver = (token: string, env: Cloudflare.Env) => Promise<Principal>

const missingToken = () =>
  new AppError('unauthorized', 'Send an access token as "Authorization: Bearer <token>".', {
    'WWW-Authenticate': 'Bearer realm="tablewatch"',
  })

export function bearerAuth(resolve: TokenResolver): MiddlewareHandler<ApiEnv> {
  return async function bearerAuth(c, next) {
    const header = c.req.header('Authorization') ?? ''
    const match = /^Bearer +([A-Za-z0-9._~+/:-]+=*) *$/i.exec(header)
    if (!match?.[1]) throw missingToken()
    c.set('principal', await resolve(match[1], c.env))
    await next()
  }
}

export function scope(needed: Scope): MiddlewareHandler<ApiEnv> {
  return async function checkScope(c, next) {
    requireScope(c.get('principal'), needed)
    await next()
  }
}

/** Body routes take JSON only; anything else is refused before it is read. */
export const jsonBody: MiddlewareHandler<ApiEnv> = async function jsonBody(c, next) {
  const type = c.req.header('Content-Type') ?? ''
  if (!/^application\/json\s*(;.*)?$/i.test(type)) {
    throw new AppError('unsupported_media_type', 'Send the body as JSON with "Content-Type: application/json".')
  }
  await next()
}
