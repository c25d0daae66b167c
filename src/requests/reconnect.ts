// An assistant connection is the user and the OAuth client together. When the same client
// consents again for the same user (a host that lost its tokens, failed a refresh, or whose
// user clicked Reconnect), the new grant takes over the connection: the requests and
// reservations of the earlier grants move to it and stay visible and active, and only then are
// the earlier grants ended (their tokens die; they would see nothing any more anyway). Only an
// explicit disconnect or revocation revokes requests (src/requests/revoke.ts).
import { type ConnectionGrant, earlierGrantsOfConnection, endGrant } from '../auth/oauth-grants'
import { grantPrincipalId } from '../auth/oauth-props'
import { transferOwnership } from '../db/requests'
import { type Deps, requestObject } from './deps'

/** Runs once the new grant exists, i.e. after its authorization code was exchanged. */
export async function carryOverConnection(deps: Deps, grant: ConnectionGrant): Promise<void> {
  const earlier = await earlierGrantsOfConnection(deps.env, grant)
  if (earlier.length === 0) return
  const from = earlier.map(grantPrincipalId)
  const to = grantPrincipalId(grant.grantId)
  // The index first, in one batch: from here on only the new grant sees the requests.
  const moved = await transferOwnership(deps.env.DB, grant.userId, from, to)
  await Promise.all(moved.map((id) => requestObject(deps.env, id).transferOwner(from, to, deps.now)))
  for (const grantId of earlier) await endGrant(deps.env, grant.userId, grantId)
}
