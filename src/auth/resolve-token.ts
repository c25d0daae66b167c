// The one place a bearer token becomes a principal, for REST and MCP alike.
import { dbOf } from '../db/client'
import { AppError } from '../errors'
import { isPersonalAccessToken, principalFromPat } from './pat'
import type { Principal } from './principal'

export async function resolveBearerToken(token: string, env: Cloudflare.Env, now = Date.now()): Promise<Principal> {
  if (isPersonalAccessToken(token)) return principalFromPat(dbOf(env.DB), token, now)
  throw new AppError('unauthorized', 'The access token is not valid.', {
    'WWW-Authenticate': 'Bearer realm="tablewatch", error="invalid_token", error_description="The access token is not valid."',
  })
}
