// The rules about what the platform account holds: a table already held for the dinner, the
// book call's answer, and which reservation is ours. The money rules are in booking-decision.ts.
import type { BookOutcome, PlatformReservation } from '../../platform/api'
import type { RequestSpec } from '../schemas'
import type { BookingAttempt } from '../state'

/**
 * A reservation the platform account already holds for this dinner (a requested date, a time
 * inside the window), if any: a second table for the same dinner is never booked. Times are
 * compared as venue-local wall-clock times, as the request's venues share its time zone.
 */
export function tableHeldForDinner(spec: RequestSpec, held: PlatformReservation[]): PlatformReservation | undefined {
  return held.find((r) => spec.dates.includes(r.day) && r.time >= spec.earliest_time && r.time <= spec.latest_time)
}

/** What the book call answered, kept on the attempt; only the account decides whether it landed. */
export function answered(attempt: BookingAttempt, outcome: BookOutcome): BookingAttempt {
  switch (outcome.kind) {
    case 'booked':
      return { ...attempt, outcome: 'booked', platformReservationId: outcome.reservationId }
    case 'unknown':
      return { ...attempt, outcome: 'unknown' }
    case 'refused':
      return { ...attempt, outcome: 'refused', refusal: outcome.reason }
    case 'reauth':
    case 'rate_limited':
      // Refused before anything happened; verification still checks the account.
      return { ...attempt, outcome: 'refused', refusal: outcome.kind }
  }
}

/**
 * The attempted booking on the account: the same table, not one that was there before booking,
 * and not one the service already recorded for another request of the user.
 */
export function ourReservation(
  attempt: BookingAttempt,
  listed: PlatformReservation[],
  claimedElsewhere: ReadonlySet<string>,
): PlatformReservation | undefined {
  return listed.find(
    (r) =>
      r.venueId === attempt.venueId &&
      r.day === attempt.day &&
      r.time === attempt.time &&
      r.partySize === attempt.partySize &&
      !attempt.preexisting.includes(r.reservationId) &&
      !claimedElsewhere.has(r.reservationId),
  )
}
