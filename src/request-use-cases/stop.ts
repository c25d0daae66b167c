// Stop ends monitoring. It never cancels a reservation: those are managed on the platform.
import type { Principal } from '../core/principal'
import { AppError } from '../errors'
import { type Deps, requestObject } from '../runtime/deps'
import { loadRequest } from './load'
import type { RequestView } from './schemas'
import { viewFor } from './view'

export async function stopRequest(
  deps: Deps,
  requestId: string,
  owner: { principal: Principal } | { userId: string },
): Promise<RequestView> {
  await loadRequest(deps, requestId, owner)
  const result = await requestObject(deps.env, requestId).stop(deps.now)
  if (!result.ok) throw new AppError(result.refusal.code, result.refusal.message)
  return viewFor(deps, result.state, 'principal' in owner ? owner.principal : null)
}
