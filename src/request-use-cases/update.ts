// Update: optimistic locking on `revision`, full replacement of the spec. An auto_book
// change needs a fresh approval (a new action_url); identical specs change nothing.
import type { Principal } from '../core/principal'
import { AppError } from '../errors'
import type { ObjectResult } from '../request-aggregate/request-object'
import { type Deps, requestObject } from '../runtime/deps'
import { checkConflicts } from './conflicts'
import type { WriteResult } from './create'
import { bodyHash } from './idempotency'
import { loadRequest } from './load'
import { checkSpec } from './rules'
import type { UpdateBody } from './schemas'
import { viewFor } from './view'

export async function updateRequest(
  deps: Deps,
  principal: Principal,
  input: { requestId: string; body: UpdateBody; idempotencyKey: string },
): Promise<WriteResult> {
  await loadRequest(deps, input.requestId, { principal })
  const object = requestObject(deps.env, input.requestId)
  const idem = { key: input.idempotencyKey, bodyHash: await bodyHash(input.body) }

  const earlier = await object.replayUpdate(idem, deps.now)
  if (earlier) return resultOf(deps, principal, earlier)

  const checked = await checkSpec(deps, input.body.spec, principal)
  await checkConflicts(deps, principal, checked, input.requestId)
  const result = await object.update({
    revision: input.body.revision,
    spec: checked.spec,
    expiresAt: checked.expiresAt,
    now: deps.now,
    idem,
  })
  return resultOf(deps, principal, result)
}

async function resultOf(deps: Deps, principal: Principal, result: ObjectResult): Promise<WriteResult> {
  if (!result.ok) throw new AppError(result.refusal.code, result.refusal.message)
  return { view: await viewFor(deps, result.state, principal), replayed: result.replayed === true }
}
