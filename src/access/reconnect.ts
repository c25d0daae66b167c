// An assistant connection is the user and the OAuth client together (src/auth/oauth-connection.ts):
// every grant of it acts as the connection's principal, so authorizing again (another device, a
// host that lost its tokens, a reinstall) adds a grant and ends none; the earlier grants keep
// working until they expire or the user disconnects. What remains to do when a grant is
// established is adopting what grants from before shared connections own: their requests and
// reservations move to the connection, where every grant of it sees them. Only an explicit
// disconnect or revocation revokes requests (src/access/revoke.ts).

import { connectionPrincipalId } from '../auth/oauth-connection'
import { type ConnectionGrant, earlierGrantsOfConnection } from '../auth/oauth-grants'
import { grantPrincipalId } from '../auth/oauth-props'
import { transferOwnership } from '../db/requests'
import { type Deps, requestObject } from '../runtime/deps'

/** Runs once the new grant exists, i.e. after its authorization code was exchanged. */
export async function carryOverConnection(deps: Deps, grant: ConnectionGrant): Promise<void> {
  const resource = grant.resources[0]
  if (!resource) return
  const earlier = await earlierGrantsOfConnection(deps.env, grant)
  if (earlier.length === 0) return
  const from = earlier.map(grantPrincipalId)
  const to = await connectionPrincipalId(grant.userId, grant.clientId, resource)
  const moved = await transferOwnership(deps.env.DB, grant.userId, from, to)
  await Promise.all(moved.map((id) => requestObject(deps.env, id).transferOwner(from, to, deps.now)))
}
