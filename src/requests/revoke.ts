// Revoking a token, grant or platform connection ends its open requests at once.
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
