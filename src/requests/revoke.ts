// Revoking a token, grant or platform connection ends its open requests at once.
import { endGrant, grantOfToken, userHasGrant } from '../auth/oauth-grants'
import { grantPrincipalId } from '../auth/oauth-props'
import { markAccessTokenRevoked } from '../auth/pat'
import { openRequestIdsOf } from '../db/requests'
import { type Deps, requestObject } from './deps'

/** Moves every open request of the principal (or of the whole user) to `revoked`. */
export async function revokeRequestsOf(deps: Deps, owner: { principalId: string } | { userId: string }, reason: string): Promise<number> {
  const ids = await openRequestIdsOf(deps.db, owner)
  await Promise.all(ids.map((id) => requestObject(deps.env, id).revoke(reason, deps.now)))
  return ids.length
}

/** The assistants page's revoke button for a personal access token. */
export async function revokeAccessToken(deps: Deps, userId: string, tokenId: string): Promise<boolean> {
  const revoked = await markAccessTokenRevoked(deps.db, userId, tokenId, deps.now)
  // Run even when it was revoked before: a crash after the first step must still converge.
  await revokeRequestsOf(deps, { principalId: tokenId }, 'The access token that created this request was revoked.')
  return revoked
}

const GRANT_REVOKED_REASON = 'The assistant connection (OAuth grant) that created this request was revoked.'

/**
 * The assistants page's disconnect button: ends one of the user's grants and its tokens, then
 * revokes the requests created through it. False when the user has no such grant (another
 * user's grant id changes nothing).
 */
export async function revokeGrant(deps: Deps, userId: string, grantId: string): Promise<boolean> {
  if (!(await userHasGrant(deps.env, userId, grantId))) return false
  await endGrant(deps.env, userId, grantId)
  await revokeRequestsOfGrants(deps, [grantId])
  return true
}

/** An ended grant's open requests move to `revoked`, like a disconnected one's. */
async function revokeRequestsOfGrants(deps: Deps, grantIds: string[]): Promise<void> {
  for (const grantId of grantIds) await revokeRequestsOf(deps, { principalId: grantPrincipalId(grantId) }, GRANT_REVOKED_REASON)
}

/**
 * After an RFC 7009 revocation at the token endpoint: revoking a refresh token ends the whole
 * grant, so its requests are revoked too. Only acts once the grant is really gone.
 */
export async function revokeRequestsOfEndedGrant(deps: Deps, token: string): Promise<void> {
  const grant = grantOfToken(token)
  if (!grant || (await userHasGrant(deps.env, grant.userId, grant.grantId))) return
  await revokeRequestsOfGrants(deps, [grant.grantId])
}
