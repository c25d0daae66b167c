// The reservation as the contract shows it (the request view, get_reservation, the home page and
// the calendars), built from its index row and the venue's catalog row.
import type { ReservationRow } from '../db/reservations'
import type { VenueRow } from '../db/venues'
import { wallClockAt } from '../lib/zoned-time'
import type { Reservation } from './schema'

/** The platform's own page where a user manages or cancels reservations. */
export const PLATFORM_ACCOUNT_URL = 'https://resy.com/account/reservations-and-notify'

/** "2026-12-05T19:30:00-05:00": the instant with the offset the venue's clock had then. */
function withOffset(ms: number, timeZone: string): string {
  const local = wallClockAt(ms, timeZone)
  const offsetMin = Math.round((Date.parse(`${local.date}T${local.time}:${String(local.seconds).padStart(2, '0')}Z`) - ms) / 60_000)
  const sign = offsetMin < 0 ? '-' : '+'
  const abs = Math.abs(offsetMin)
  return `${local.date}T${local.time}:${String(local.seconds).padStart(2, '0')}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}

/** The reservation's view; `venue` is its catalog row (absent only if the catalog lost it). */
export function reservationView(row: ReservationRow, venue: VenueRow | undefined): Reservation {
  const timeZone = venue?.timeZone ?? 'UTC'
  return {
    reservation_id: row.id,
    verified: row.verified,
    request_id: row.requestId,
    venue_id: row.venueId,
    venue_name: venue?.name ?? `Restaurant #${row.venueId}`,
    address: venue?.address ?? null,
    time_zone: timeZone,
    date: row.date,
    time: row.time,
    starts_at: withOffset(row.startsAt, timeZone),
    party_size: row.partySize,
    seating: row.seating,
    cancellation_fee_per_person: row.cancellationFee,
    free_cancellation_until: row.cancellationDeadline === null ? null : new Date(row.cancellationDeadline).toISOString(),
    manage_url: PLATFORM_ACCOUNT_URL,
  }
}
