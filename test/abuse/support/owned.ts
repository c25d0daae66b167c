// A request (and optionally a reservation) owned by a token, made through the create use case
// with the token's own principal: the token need not hold requests:write for its matrix row.
import { env } from 'cloudflare:test'
import { principalFromPat } from '../../../src/auth/pat'
import { dbOf } from '../../../src/db/client'
import { createRequest } from '../../../src/requests/create'
import { getRequest } from '../../../src/requests/read'
import { depsOf } from '../../../src/requests/deps'
import { RequestSpec } from '../../../src/requests/schemas'
import { newKey } from '../../helpers/api'
import { insertReservation, validSpec, type Spec } from '../../helpers/requests'

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

/** What a refused call must not change: status, revision and title, read as the owner. */
export async function stateOf(token: string, requestId: string): Promise<{ status: string; revision: number; title: string }> {
  const principal = await principalFromPat(dbOf(env.DB), token, Date.now())
  const view = await getRequest(depsOf(env), principal, requestId)
  return { status: view.status, revision: view.revision, title: view.title }
}
