// Preview validates and resolves a spec exactly as create would, and creates nothing; it says
// which venues of an auto_book request cannot be booked (venue-warnings.ts).
import type { Principal } from '../core/principal'
import { executorFor } from '../executors/executor-readiness'
import type { Deps } from '../runtime/deps'
import { checkConflicts } from './conflicts'
import { checkSpec } from './rules'
import type { PreviewResult, RequestSpec } from './schemas'
import { specView } from './spec-conversion'
import { venueWarnings } from './venue-warnings'

export async function previewRequest(deps: Deps, principal: Principal, spec: RequestSpec): Promise<PreviewResult> {
  const checked = await checkSpec(deps, spec, principal)
  await checkConflicts(deps, principal, checked)
  const [executor, warnings] = await Promise.all([executorFor(deps, principal.userId, spec.mode), venueWarnings(deps, checked.spec)])
  return {
    valid: true,
    spec: specView(checked.spec),
    restaurants: checked.restaurants,
    timezone: checked.spec.timezone,
    executor,
    warnings,
  }
}
