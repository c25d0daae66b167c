// Create a request: validate, check conflicts, insert atomically under the limits, then
// build its Durable Object. Retried calls with the same key converge on the same request.
import type { Principal } from '../core/principal'
import { countOpenRequests, insertRequestAtomically, OPEN_REQUEST_LIMIT } from '../db/requests'
import { AppError } from '../errors'
import { newId } from '../lib/random'
import { type Deps, requestObject } from '../runtime/deps'
import { checkConflicts } from './conflicts'
import { bodyHash, conflictingKey, createScopeKey, findKey, type StoredKey } from './idempotency'
import { loadRequest } from './load'
import { checkSpec } from './rules'
import type { RequestSpec, RequestView } from './schemas'
import { venueWarnings } from './venue-warnings'
import { viewFor } from './view'

export interface WriteResult {
  view: RequestView
  /** True when this answers a retry of an earlier call with the same idempotency key. */
  replayed: boolean
}

const requestLimit = () =>
  new AppError(
    'request_limit',
    `You already have ${OPEN_REQUEST_LIMIT} open requests. Stop one you no longer need before creating another.`,
  )

export async function createRequest(
  deps: Deps,
  principal: Principal,
  input: { spec: RequestSpec; idempotencyKey: string },
): Promise<WriteResult> {
  const scopeKey = createScopeKey(principal.principalId, input.idempotencyKey)
  const hash = await bodyHash(input.spec)
  const earlier = await findKey(deps, scopeKey)
  if (earlier) return replay(deps, principal, earlier, hash)

  const checked = await checkSpec(deps, input.spec, principal)
  await checkConflicts(deps, principal, checked)
  if ((await countOpenRequests(deps.db, principal.userId)) >= OPEN_REQUEST_LIMIT) throw requestLimit()
  // The venues it cannot book, as the platform says now: the view answered below warns of them.
  await venueWarnings(deps, checked.spec)

  const record = {
    id: newId('sr'),
    userId: principal.userId,
    principalId: principal.principalId,
    spec: checked.spec,
    expiresAt: checked.expiresAt,
    createdAt: deps.now,
  }
  const created = await insertRequestAtomically(deps.env.DB, {
    record,
    scopeKey,
    bodyHash: hash,
    windows: checked.windows,
    now: deps.now,
  })
  if (!created) {
    // Another call won a race: the same key, the last free slot, or the same dinner.
    const winner = await findKey(deps, scopeKey)
    if (winner) return replay(deps, principal, winner, hash)
    await checkConflicts(deps, principal, checked)
    throw requestLimit()
  }
  const state = await requestObject(deps.env, record.id).ensure(record)
  return { view: await viewFor(deps, state, principal), replayed: false }
}

async function replay(deps: Deps, principal: Principal, stored: StoredKey, hash: string): Promise<WriteResult> {
  if (stored.bodyHash !== hash) throw conflictingKey()
  const state = await loadRequest(deps, stored.requestId, { principal })
  return { view: await viewFor(deps, state, principal), replayed: true }
}
