// Revoking a token, grant or platform connection ends its open requests at once. Every way a
// grant ends with its requests passes through here: disconnect, RFC 7009 revocation, a replayed
// refresh token. (A reconnect of the same client is not an end: src/access/reconnect.ts.)
import { connectionOfGrant, endGrant, type GrantOfConnection, grantOfToken } from '../auth/oauth-grants'
import { grantPrincipalId } from '../auth/oauth-props'
import { markAccessTokenRevoked } from '../auth/pat'
import type { Deps } from '../runtime/deps'
import { revokeRequestsOf } from '../runtime/open-requests'

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
 * The assistants page's disconnect button: ends the connection the grant belongs to, every grant
 * of it with their tokens, then revokes the connection's requests. False when the user has no
 * such grant (another user's grant id changes nothing).
 */
export async function revokeGrant(deps: Deps, userId: string, grantId: string): Promise<boolean> {
  const connection = await connectionOfGrant(deps.env, userId, grantId)
  if (!connection) return false
  for (const id of connection.grantIds) await endGrant(deps.env, userId, id)
  await revokeRequestsOfConnection(deps, connection)
  return true
}

/**
 * Ends one grant (a replayed refresh token's): the library deletes it with its tokens. The
 * connection's requests are revoked only when this was its last grant; the user's other devices
 * keep working and keep seeing them.
 */
export async function endGrantAndItsRequests(deps: Deps, grant: { userId: string; grantId: string }): Promise<void> {
  const connection = await connectionOfGrant(deps.env, grant.userId, grant.grantId)
  await endGrant(deps.env, grant.userId, grant.grantId)
  if (connection) await revokeIfLastGrantEnded(deps, grant.userId, connection)
  else await revokeRequestsOf(deps, { principalId: grantPrincipalId(grant.grantId) }, GRANT_REVOKED_REASON)
}

async function revokeRequestsOfConnection(deps: Deps, connection: GrantOfConnection): Promise<void> {
  for (const principalId of [connection.connectionId, ...connection.grantIds.map(grantPrincipalId)]) {
    await revokeRequestsOf(deps, { principalId }, GRANT_REVOKED_REASON)
  }
}

/** After one grant of a connection ended: its own leftovers go, and the connection's too if no grant remains. */
async function revokeIfLastGrantEnded(deps: Deps, userId: string, connection: GrantOfConnection): Promise<void> {
  await revokeRequestsOf(deps, { principalId: grantPrincipalId(connection.grantId) }, GRANT_REVOKED_REASON)
  const others = connection.grantIds.filter((id) => id !== connection.grantId)
  const remaining = await Promise.all(others.map((id) => connectionOfGrant(deps.env, userId, id)))
  if (remaining.every((found) => found === null))
    await revokeRequestsOf(deps, { principalId: connection.connectionId }, GRANT_REVOKED_REASON)
}

/**
 * An RFC 7009 revocation at the token endpoint (`revoke` lets the library answer it). The library
 * answers 200 whatever it was given (RFC 7009, section 2.2), so what it did is found out by looking,
 * never by believing the presented string: the grant the token names must be among the live
 * grants of the user it names before the call (grant ids are random: a forged pair names none),
 * and gone after it. Only then are requests revoked: that grant's own, and the connection's when
 * it was the connection's last grant. A forged, foreign, expired or access token changes nothing.
 */
export async function revokeRequestsIfRevocationEndsGrant(deps: Deps, token: string, revoke: () => Promise<Response>): Promise<Response> {
  const named = grantOfToken(token)
  const before = named ? await connectionOfGrant(deps.env, named.userId, named.grantId) : null
  const answer = await revoke()
  if (named && before && !(await connectionOfGrant(deps.env, named.userId, named.grantId))) {
    await revokeIfLastGrantEnded(deps, named.userId, before)
  }
  return answer
}
