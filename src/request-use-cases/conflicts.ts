// "The same dinner" checks of design.md: they apply to auto_book specs only. A refusal names
// the overlapping request only to the token or connection that can see it; for another of the
// user's assistants' requests it points the user to the Requests page instead, since the caller
// could neither read, update nor stop it.
import type { Principal } from '../core/principal'
import { findOverlappingRequests, type OverlapHit } from '../db/requests'
import { verifiedReservationsIn } from '../db/reservations'
import { AppError } from '../errors'
import type { Deps } from '../runtime/deps'
import type { CheckedSpec } from './rules'

/** How the refusal names the request: by id to its own caller, else by where the user sees it. */
function named(principal: Principal, hit: OverlapHit): { own: boolean; subject: string } {
  return hit.principalId === principal.principalId
    ? { own: true, subject: `Request ${hit.id}` }
    : { own: false, subject: "Another of your assistants' requests" }
}

function requestsPage(deps: Deps): string {
  return `The user can see and stop it on the Requests page: ${deps.baseUrl}/requests.`
}

function verifying(deps: Deps, principal: Principal, hit: OverlapHit): AppError {
  const { own, subject } = named(principal, hit)
  const where = own ? '' : ` ${requestsPage(deps)}`
  return new AppError(
    'outcome_unknown',
    `${subject} for an overlapping dinner may have booked a table and is being verified right now; wait for its result before asking again.${where}`,
  )
}

function overlapping(deps: Deps, principal: Principal, hit: OverlapHit): AppError {
  const { own, subject } = named(principal, hit)
  const what =
    hit.status === 'needs_approval'
      ? 'is waiting for the user to approve booking a table for an overlapping dinner'
      : 'is already watching to book a table for an overlapping dinner'
  const next = own
    ? 'Update or stop that request instead of creating another.'
    : `${requestsPage(deps)} Do not create another for this dinner.`
  return new AppError('overlapping_booking_request', `${subject} ${what}. ${next}`)
}

export async function checkConflicts(deps: Deps, principal: Principal, checked: CheckedSpec, exceptRequestId = ''): Promise<void> {
  if (checked.spec.mode !== 'auto_book') return
  const hits = await findOverlappingRequests(deps.env.DB, principal.userId, checked.windows, exceptRequestId)
  const inVerification = hits.find((r) => r.status === 'awaiting_verification')
  if (inVerification) throw verifying(deps, principal, inVerification)
  // The caller's own request first: that one it can act on.
  const open = hits.find((r) => r.principalId === principal.principalId) ?? hits[0]
  if (open) throw overlapping(deps, principal, open)
  const [booked] = await verifiedReservationsIn(deps.db, principal.userId, checked.windows)
  if (booked) {
    throw new AppError(
      'existing_reservation',
      `You already have a reservation on ${booked.date} at ${booked.time} that overlaps this dinner.`,
    )
  }
}
