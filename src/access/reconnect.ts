// An assistant connection is the user and the OAuth client together (src/auth/oauth-connection.ts):
// every grant of it acts as the connection's principal, so authorizing again (another device, a
// host that lost its tokens, a reinstall) adds a grant and ends none; the earlier grants keep
// working until they expire or the user disconnects. What remains to do when a grant is
// established is adopting what grants from before shared connections own: their requests and
// reservations move to the connection, where every grant of it sees them. Only an explicit
// disconnect or revocation revokes requests (src/access/revoke.ts).
//
// A host that registered again (a connector removed and re-added, a cleared cache) is another
// client, so another connection. When it looks like an earlier one (the same name and redirect
// URIs), the consent page offers to continue that one, naming its requests; only if the user
// chooses it do the requests move to the new connection, and the earlier client's grants end.

import { displayName } from '../auth/client-metadata'
import { oauthApi } from '../auth/oauth'
import { connectionPrincipalId } from '../auth/oauth-connection'
import { type ClientLook, type ConnectionGrant, earlierGrantsOfConnection, endGrant, lookAlikeConnections } from '../auth/oauth-grants'
import { grantPrincipalId } from '../auth/oauth-props'
import { STATUSES, type Status } from '../core/status'
import { requestsOwnedBy, transferOwnership } from '../db/requests'
import { RequestSpec } from '../request-use-cases/schemas'
import { type Deps, requestObject } from '../runtime/deps'

/** How many of an earlier connection's requests the consent page names (the rest are counted). */
const NAMED_REQUESTS = 10
/** Beyond this the page says "1000 requests" (a connection holds 20 open ones; the rest are history). */
const MAX_COUNTED = 1000

/** A request as the consent page names it. */
export interface NamedRequest {
  id: string
  title: string
  dates: string[]
  /** Null for a status this build does not know (never shown wrong). */
  status: Status | null
}

/** An earlier connection the consent page may offer to continue. */
export interface ConnectionToContinue {
  clientId: string
  clientName: string
  /** When its newest grant was made (ms). */
  connectedAt: number
  requests: NamedRequest[]
  /** All its requests, named or not. */
  requestCount: number
}

const ownersOf = (connection: { connectionId: string; grantIds: string[] }) => [
  connection.connectionId,
  ...connection.grantIds.map(grantPrincipalId),
]

function named(row: { id: string; spec: unknown; status: string }): NamedRequest {
  const spec = RequestSpec.safeParse(row.spec)
  return {
    id: row.id,
    title: spec.data?.title ?? '',
    dates: spec.data?.dates ?? [],
    status: STATUSES.find((known) => known === row.status) ?? null,
  }
}

/**
 * The user's earlier connections that `client` looks like and that own requests: what the
 * consent page offers to continue. A connection without requests has nothing to carry on.
 */
export async function connectionsToContinue(
  deps: Deps,
  userId: string,
  client: ClientLook,
  resource: string,
): Promise<ConnectionToContinue[]> {
  const offered: ConnectionToContinue[] = []
  for (const earlier of await lookAlikeConnections(deps.env, userId, client, resource)) {
    const owners = ownersOf(earlier)
    const rows = await requestsOwnedBy(deps.db, userId, owners, MAX_COUNTED)
    if (rows.length === 0) continue
    offered.push({
      clientId: earlier.clientId,
      clientName: earlier.clientName,
      connectedAt: earlier.connectedAt,
      requests: rows.slice(0, NAMED_REQUESTS).map(named),
      requestCount: rows.length,
    })
  }
  return offered
}

/** What the consent page compares: the client's name as shown and its redirect URIs. */
export async function lookOfClient(env: Cloudflare.Env, clientId: string): Promise<ClientLook | null> {
  const client = await oauthApi(env).lookupClient(clientId)
  if (!client) return null
  return { clientId, name: displayName(client.clientName ?? ''), redirectUris: client.redirectUris }
}

/** Runs once the new grant exists, i.e. after its authorization code was exchanged. */
export async function carryOverConnection(deps: Deps, grant: ConnectionGrant): Promise<void> {
  const resource = grant.resources[0]
  if (!resource) return
  const to = await connectionPrincipalId(grant.userId, grant.clientId, resource)
  const earlier = await earlierGrantsOfConnection(deps.env, grant)
  if (earlier.length > 0) await moveRequests(deps, grant.userId, earlier.map(grantPrincipalId), to)
  if (grant.continuesClientId) await continueEarlierConnection(deps, grant, grant.continuesClientId, resource, to)
}

/**
 * The user chose, on the consent page, to continue the connection of `earlierClientId`: checked
 * again here (it must still be a live look-alike of this grant's client), its requests move to
 * this grant's connection, then its grants end (its tokens would otherwise see nothing). The
 * requests move first, so a failure in between leaves them with a connection that works.
 */
async function continueEarlierConnection(deps: Deps, grant: ConnectionGrant, earlierClientId: string, resource: string, to: string) {
  const look = await lookOfClient(deps.env, grant.clientId)
  if (!look) return
  const earlier = (await lookAlikeConnections(deps.env, grant.userId, look, resource)).find((c) => c.clientId === earlierClientId)
  if (!earlier) return
  await moveRequests(deps, grant.userId, ownersOf(earlier), to)
  for (const grantId of earlier.grantIds) await endGrant(deps.env, grant.userId, grantId)
}

async function moveRequests(deps: Deps, userId: string, from: string[], to: string): Promise<void> {
  const moved = await transferOwnership(deps.env.DB, userId, from, to)
  await Promise.all(moved.map((id) => requestObject(deps.env, id).transferOwner(from, to, deps.now)))
}
