// Finding a principal's request: the index says who owns it, the object says what it is.
import type { Principal } from '../core/principal'
import { findRequestRow, type RequestRow } from '../db/requests'
import { AppError } from '../errors'
import type { RequestRecord, RequestState } from '../request-aggregate/state'
import { type Deps, requestObject } from '../runtime/deps'
import { RequestSpec } from './schemas'
import { specOf } from './spec-conversion'

/** The index row as the object's creation record; the spec is parsed, never trusted as stored. */
export function recordOf(row: RequestRow): RequestRecord {
  return {
    id: row.id,
    userId: row.userId,
    principalId: row.principalId,
    spec: specOf(RequestSpec.parse(row.spec)),
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
  }
}

const requestNotFound = (id: string) => new AppError('request_not_found', `No request ${id} was found for this token.`)

/**
 * The request's current state, if `owner` may see it: the principal that created it, or
 * (for the service's own pages) the user. Builds the object from the index record when an
 * earlier create stopped half-way, so a retry or a read converges.
 */
export async function loadRequest(
  deps: Pick<Deps, 'db' | 'env'>,
  requestId: string,
  owner: { principal: Principal } | { userId: string },
): Promise<RequestState> {
  const row = await findRequestRow(deps.db, requestId)
  const allowed = row && ('principal' in owner ? row.principalId === owner.principal.principalId : row.userId === owner.userId)
  if (!row || !allowed) throw requestNotFound(requestId)
  return requestObject(deps.env, requestId).ensure(recordOf(row))
}
