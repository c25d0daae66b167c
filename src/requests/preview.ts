// Preview validates and resolves a spec exactly as create would, and creates nothing.
import type { Principal } from '../core/principal'
import { executorFor } from '../executors/executor'
import type { Deps } from '../runtime/deps'
import { checkConflicts } from './conflicts'
import { checkSpec } from './rules'
import type { PreviewResult, RequestSpec } from './schemas'
import { specView } from './spec'

export async function previewRequest(deps: Deps, principal: Principal, spec: RequestSpec): Promise<PreviewResult> {
  const checked = await checkSpec(deps, spec, principal)
  await checkConflicts(deps, principal, checked)
  return {
    valid: true,
    spec: specView(checked.spec),
    restaurants: checked.restaurants,
    timezone: checked.spec.timezone,
    executor: await executorFor(deps, principal.userId, spec.mode),
  }
}
