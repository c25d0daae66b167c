// What a change to a user's account (a connection, a device, a revoked token or grant) means for
// their open requests: each request's object is told, and decides for itself. Below every
// feature that triggers it, so none of them imports the requests' use cases for it.
import { openRequestIdsOf } from '../db/requests'
import { type Deps, requestObject } from './deps'

/** Requests that wait for a working connection start watching at once (the others ignore it). */
export async function wakeRequestsOf(deps: Deps, userId: string): Promise<void> {
  const ids = await openRequestIdsOf(deps.db, { userId })
  await Promise.all(ids.map((id) => requestObject(deps.env, id).connected()))
}

/** Moves every open request of the principal (or of the whole user) to `revoked`. */
export async function revokeRequestsOf(deps: Deps, owner: { principalId: string } | { userId: string }, reason: string): Promise<number> {
  const ids = await openRequestIdsOf(deps.db, owner)
  await Promise.all(ids.map((id) => requestObject(deps.env, id).revoke(reason, deps.now)))
  return ids.length
}
