// Rules about the account's existing reservations. The auto-book rules about money are in
// booking-decision.ts.
import type { PlatformReservation } from '../../platform/api'
import type { RequestSpec } from '../schemas'

/**
 * A reservation the platform account already holds for this dinner (a requested date, a time
 * inside the window), if any: a second table for the same dinner is never booked. Times are
 * compared as venue-local wall-clock times, as the request's venues share its time zone.
 */
export function tableHeldForDinner(spec: RequestSpec, held: PlatformReservation[]): PlatformReservation | undefined {
  return held.find((r) => spec.dates.includes(r.day) && r.time >= spec.earliest_time && r.time <= spec.latest_time)
}
