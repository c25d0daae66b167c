// The rules about what the platform account holds: a table already held for the dinner, the
// book call's answer, and which reservation is ours. The money rules are in booking-decision.ts.
import type { BookOutcome, PlatformReservation } from '../../platform/api'
import type { AbsentReads, BookingAttempt } from '../booking-state'
import type { Spec } from '../spec'

/**
 * A reservation the platform account already holds for this dinner (a requested date, a time
 * inside the window), if any: a second table for the same dinner is never booked. Times are
 * compared as venue-local wall-clock times, as the request's venues share its time zone.
 */
export function tableHeldForDinner(spec: Spec, held: PlatformReservation[]): PlatformReservation | undefined {
  return held.find((r) => spec.dates.includes(r.day) && r.time >= spec.earliest_time && r.time <= spec.latest_time)
}

/** What the book call answered, kept on the attempt; only the account decides whether it landed. */
export function answered(attempt: BookingAttempt, outcome: BookOutcome): BookingAttempt {
  switch (outcome.kind) {
    case 'booked':
      return { ...attempt, outcome: 'booked', platformReservationId: outcome.reservationId }
    case 'unknown':
      return { ...attempt, outcome: 'unknown', saidGone: outcome.saidGone ? outcome.detail : null }
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

/**
 * An unclear booking answer in which the platform said the table is gone is
 * disproved by the account when at least DISPROOF_READS reads, spread over at least
 * DISPROOF_SPAN_MS, show no such reservation. A read counts only DISPROOF_READ_GAP_MS after the
 * last one counted, so an alarm delivered twice (or a restart that reads again at once) cannot
 * make one look into several.
 */
const DISPROOF_READS = 3
const DISPROOF_SPAN_MS = 10 * 60 * 1000
const DISPROOF_READ_GAP_MS = 15_000
/** How long such an attempt is verified before giving up (the span, and room for failed reads). */
export const DISPROOF_WINDOW_MS = 20 * 60 * 1000

/** The absent reads with one more at `now` (unchanged when it comes too soon after the last). */
export function withAbsentRead(reads: AbsentReads | null, now: number): AbsentReads {
  if (!reads) return { first: now, last: now, count: 1 }
  if (now - reads.last < DISPROOF_READ_GAP_MS) return reads
  return { first: reads.first, last: now, count: reads.count + 1 }
}

/** Whether the absent reads disprove the booking (see DISPROOF_READS). */
export function disproved(reads: AbsentReads | null): boolean {
  return reads !== null && reads.count >= DISPROOF_READS && reads.last - reads.first >= DISPROOF_SPAN_MS
}
