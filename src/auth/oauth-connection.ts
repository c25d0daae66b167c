// One assistant connection per (user, OAuth client, resource), with as many grants as the user
// authorized: another device, a reinstall of the same host, a CIMD host whose every install
// shares one client_id. Every grant of a connection acts as the same
// principal, so all of them see the connection's requests, and authorizing again never ends an
// earlier grant. The principal id is derived from the three (a hash: stable, never parsed back),
// and stored in the grant's props at the code exchange; a grant from before this change gets it
// at its next refresh (until then it keeps its own `grant_<id>` principal).
import { sha256Hex } from '../lib/random'

/** The principal every grant of this user, client and resource acts as. */
export async function connectionPrincipalId(userId: string, clientId: string, resource: string): Promise<string> {
  // Newlines cannot occur in any of the three (user ids, client ids and resource URLs are checked).
  return `conn_${(await sha256Hex(`${userId}\n${clientId}\n${resource}`)).slice(0, 40)}`
}

/** Whether a principal id names a connection (as opposed to a token or a pre-connection grant). */
export function isConnectionPrincipal(principalId: string): boolean {
  return principalId.startsWith('conn_')
}
