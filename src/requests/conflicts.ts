// "The same dinner" checks of design.md: they apply to auto_book specs only.
import { findOverlappingRequests } from '../db/requests'
import { verifiedReservationsIn } from '../db/reservations'
import { AppError } from '../errors'
import type { Deps } from './deps'
import type { CheckedSpec } from './rules'

export async function checkConflicts(deps: Deps, userId: string, checked: CheckedSpec, exceptRequestId = ''): Promise<void> {
  if (checked.spec.mode !== 'auto_book') return
  const overlapping = await findOverlappingRequests(deps.env.DB, userId, checked.windows, exceptRequestId)
  const verifying = overlapping.find((r) => r.status === 'awaiting_verification')
  if (verifying) {
    throw new AppError(
      'outcome_unknown',
      `A booking for an overlapping dinner (request ${verifying.id}) is being verified right now; wait for its result before asking again.`,
    )
  }
  const [open] = overlapping
  if (open) {
    throw new AppError(
      'overlapping_booking_request',
      `Request ${open.id} already books a table for an overlapping dinner. Update or stop that request instead of creating another.`,
    )
  }
  const [booked] = await verifiedReservationsIn(deps.db, userId, checked.windows)
  if (booked) {
    throw new AppError(
      'existing_reservation',
      `You already have a reservation on ${booked.date} at ${booked.time} that overlaps this dinner.`,
    )
  }
}
