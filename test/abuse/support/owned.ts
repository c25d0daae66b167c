// A request (and optionally a reservation) owned by a token, made through the create use case
// with the token's own principal: the token need not hold requests:write for its matrix row.
import { env } from 'cloudflare:test'
import { principalFromPat } from '../../../src/auth/pat'
import { dbOf } from '../../../src/db/client'
import { createRequest } from '../../../src/request-use-cases/create'
import { getRequest } from '../../../src/request-use-cases/read'
import { RequestSpec } from '../../../src/request-use-cases/schemas'
import { depsOf } from '../../../src/runtime/deps'
import { newKey } from '../../helpers/api'
import { insertReservation, type Spec, validSpec } from '../../helpers/requests'

export interface Owned {
  requestId: string
  revision: number
  reservationId: number
}

export async function ownedBy(token: string, overrides: Spec = {}): Promise<Owned> {
  const principal = await principalFromPat(dbOf(env.DB), token, Date.now())
  const spec = RequestSpec.parse(validSpec(overrides))
  const { view } = await createRequest(depsOf(env), principal, { spec, idempotencyKey: newKey() })
  return { requestId: view.id, revision: view.revision, reservationId: await insertReservation(view.id) }
}

/**
 * What a refused call must not change, read as the owner: status, revision and the spec. (Not
 * the whole view: the watcher may poll meanwhile and move last_checked_at.)
 */
export async function stateOf(token: string, requestId: string) {
  const principal = await principalFromPat(dbOf(env.DB), token, Date.now())
  const { status, revision, title, venue_ids, dates, earliest_time, latest_time, party_size, mode, expires_at, action_url } =
    await getRequest(depsOf(env), principal, requestId)
  return { status, revision, title, venue_ids, dates, earliest_time, latest_time, party_size, mode, expires_at, action_url }
}
