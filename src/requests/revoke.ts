// Revoking a token, grant or platform connection ends its open requests at once. Every way a
// grant ends with its requests passes through here: disconnect, RFC 7009 revocation, a replayed
// refresh token. (A reconnect of the same client is not an end: src/requests/reconnect.ts.)
import { endGrant, grantOfToken, userHasGrant } from '../auth/oauth-grants'
import { grantPrincipalId } from '../auth/oauth-props'
import { markAccessTokenRevoked } from '../auth/pat'
import { openRequestIdsOf, ownerOfPrincipal } from '../db/requests'
import { type Deps, requestObject } from './deps'

/** Moves every open request of the principal (or of the whole user) to `revoked`. */
export async function revokeRequestsOf(deps: Deps, owner: { principalId: string } | { userId: string }, reason: string): Promise<number> {
  const ids = await openRequestIdsOf(deps.db, owner)
  await Promise.all(ids.map((id) => requestObject(deps.env, id).revoke(reason, deps.now)))
  return ids.length
}

/**
 * The assistants page's revoke button for a personal access token. Returns false, changing
 * nothing, when the token is not the user's. Revoking one already revoked still revokes its
 * requests, so a crash between the two steps converges on the next try.
 */
export async function revokeAccessToken(deps: Deps, userId: string, tokenId: string): Promise<boolean> {
  const owned = await markAccessTokenRevoked(deps.db, userId, tokenId, deps.now)
  if (!owned) return false
  await revokeRequestsOf(deps, { principalId: tokenId }, 'The access token that created this request was revoked.')
  return true
}

const GRANT_REVOKED_REASON = 'The assistant connection (OAuth grant) that created this request was revoked.'

/**
 * The assistants page's disconnect button: ends one of the user's grants and its tokens, then
 * revokes the requests created through it. False when the user has no such grant (another
 * user's grant id changes nothing).
 */
export async function revokeGrant(deps: Deps, userId: string, grantId: string): Promise<boolean> {
  if (!(await userHasGrant(deps.env, userId, grantId))) return false
  await endGrantAndItsRequests(deps, { userId, grantId })
  return true
}

/** Ends a grant (the library deletes it with its tokens) and moves its requests to `revoked`. */
export async function endGrantAndItsRequests(deps: Deps, grant: { userId: string; grantId: string }): Promise<void> {
  await endGrant(deps.env, grant.userId, grant.grantId)
  await revokeRequestsOfGrants(deps, [grant.grantId])
}

/** An ended grant's open requests move to `revoked`, like a disconnected one's. */
async function revokeRequestsOfGrants(deps: Deps, grantIds: string[]): Promise<void> {
  for (const grantId of grantIds) await revokeRequestsOf(deps, { principalId: grantPrincipalId(grantId) }, GRANT_REVOKED_REASON)
}

/**
 * An RFC 7009 revocation at the token endpoint (`revoke` lets the library answer it). The library
 * answers 200 whatever it was given (RFC 7009 §2.2), so what it did is found out by looking,
 * never by believing the presented string: the owner of the grant the token names is read from
 * the requests that grant created, and only when that owner's grant existed before the call and
 * is gone after it are the grant's requests revoked. A forged, foreign, expired or access token
 * changes nothing here.
 */
export async function revokeRequestsIfRevocationEndsGrant(deps: Deps, token: string, revoke: () => Promise<Response>): Promise<Response> {
  const grantId = grantOfToken(token)?.grantId
  const owner = grantId ? await ownerOfPrincipal(deps.db, grantPrincipalId(grantId)) : null
  const existed = owner && grantId ? await userHasGrant(deps.env, owner, grantId) : false
  const answer = await revoke()
  if (existed && owner && grantId && !(await userHasGrant(deps.env, owner, grantId))) await revokeRequestsOfGrants(deps, [grantId])
  return answer
}
