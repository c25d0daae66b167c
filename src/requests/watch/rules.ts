// The auto-book rules of design.md, as one pure check on the booking details the platform
// gave for a matching slot. Any doubt refuses: the user is alerted instead.
import type { BookingDetails, PlatformReservation } from '../../platform/api'
import type { RequestSpec } from '../schemas'

const HOUR_MS = 60 * 60 * 1000

/** Null when the slot may be booked; otherwise why not, in words for the trace and the alert. */
export function bookingRefusal(details: BookingDetails, spec: RequestSpec, slotStartsAt: number, now: number): string | null {
  if (details.deposit) return 'it needs a deposit'
  if (details.prepaid) return 'it is prepaid'
  if (details.ticketed) return 'it is a ticketed experience'
  const fee = details.cancellationFeePerPerson
  if (fee === null) return 'the platform holds a card but states no cancellation fee'
  if (fee > spec.max_cancellation_fee_per_person) {
    return `cancellation fee ${fee} > ${spec.max_cancellation_fee_per_person} per person`
  }
  // With no fee at all, cancelling is free until the table's own time.
  const freeUntil = details.freeCancellationUntil ?? (fee === 0 ? slotStartsAt : null)
  if (freeUntil === null) return 'the platform states no free-cancellation deadline'
  const hoursLeft = (freeUntil - now) / HOUR_MS
  if (hoursLeft < spec.fee_review_hours) {
    return `free cancellation ends in ${Math.max(0, Math.floor(hoursLeft))} h, less than ${spec.fee_review_hours} h away`
  }
  return null
}

/**
 * A reservation the platform account already holds for this dinner (a requested date, a time
 * inside the window), if any: a second table for the same dinner is never booked. Times are
 * compared as venue-local wall-clock times, as the request's venues share its time zone.
 */
export function tableHeldForDinner(spec: RequestSpec, held: PlatformReservation[]): PlatformReservation | undefined {
  return held.find((r) => spec.dates.includes(r.day) && r.time >= spec.earliest_time && r.time <= spec.latest_time)
}
