// The one place a bearer token becomes a principal, for REST and MCP alike: a personal access
// token (`spt_…`), or an OAuth access token issued for the resource being called.

import type { Principal } from '../core/principal'
import { dbOf } from '../db/client'
import { AppError } from '../errors'
import { tokenFits } from './identifier-limits'
import { oauthSetup } from './oauth'
import { principalFromOAuth } from './oauth-props'
import { isPersonalAccessToken, principalFromPat } from './pat'

/**
 * `resource` is the canonical resource the token is presented to (`{origin}/api/v1` unless
 * given): an OAuth token works only where its audience says, so a token issued for /mcp is
 * refused on /api/v1 and the other way round.
 */
export async function resolveBearerToken(
  token: string,
  env: Cloudflare.Env,
  now = Date.now(),
  resource = oauthSetup(env).apiResource,
): Promise<Principal> {
  // No token the service issues is this long; KV would throw on the key built from it.
  if (!tokenFits(token)) throw invalidToken()
  if (isPersonalAccessToken(token)) return principalFromPat(dbOf(env.DB), token, now)
  const validated = await oauthSetup(env).server.validateToken(resource, token, env)
  const principal = validated ? principalFromOAuth(validated) : null
  if (principal) return principal
  throw invalidToken()
}

function invalidToken(): AppError {
  return new AppError('unauthorized', 'The access token is not valid.', {
    'WWW-Authenticate': 'Bearer realm="tablewatch", error="invalid_token", error_description="The access token is not valid."',
  })
}
