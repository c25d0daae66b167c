// Confirmed reservations as iCalendar (RFC 5545), for the .ics download and the calendar feed.
// Times are written in UTC (no VTIMEZONE needed); each event carries the restaurant, its
// address, the party and seating, the fee terms and the platform's manage link, and an alarm
// before the free-cancellation deadline when cancelling later costs money.
import ical, { ICalAlarmType } from 'ical-generator'
import { dollars } from '../lib/money'
import type { Reservation } from './schema'

/** How long a dinner is assumed to last in calendars: the platform states no end time. */
const DINNER_MS = 2 * 60 * 60 * 1000
/** The cancellation alarm rings this long before the free-cancellation deadline. */
const CANCEL_ALARM_BEFORE_MS = 3 * 60 * 60 * 1000

function feeWords(r: Reservation): string {
  if (r.cancellation_fee_per_person === null || r.cancellation_fee_per_person === 0) return 'No cancellation fee.'
  const fee = `Cancellation fee: ${dollars(r.cancellation_fee_per_person)} per person`
  return r.free_cancellation_until ? `${fee} after ${r.free_cancellation_until} (free to cancel until then).` : `${fee}.`
}

function description(r: Reservation): string {
  return [
    `Table for ${r.party_size}, ${r.seating}.`,
    feeWords(r),
    `Manage or cancel it on the platform: ${r.manage_url}`,
    'Booked by Tablewatch. Tablewatch never cancels a reservation.',
  ].join('\n')
}

/** The alarm's instant: before the deadline when a fee applies after it, else none. */
function cancellationAlarmAt(r: Reservation): number | null {
  if (!r.free_cancellation_until || !r.cancellation_fee_per_person) return null
  return Date.parse(r.free_cancellation_until) - CANCEL_ALARM_BEFORE_MS
}

export function reservationsCalendar(name: string, reservations: Reservation[], host: string): string {
  const calendar = ical({ name, prodId: { company: 'Tablewatch', product: 'reservations', language: 'EN' } })
  for (const r of reservations) {
    const start = new Date(Date.parse(r.starts_at))
    const event = calendar.createEvent({
      id: `reservation-${r.reservation_id}@${host}`,
      start,
      end: new Date(start.getTime() + DINNER_MS),
      summary: `Dinner at ${r.venue_name}`,
      location: r.address ?? r.venue_name,
      description: description(r),
      url: r.manage_url,
    })
    const alarmAt = cancellationAlarmAt(r)
    if (alarmAt !== null)
      event.createAlarm({
        type: ICalAlarmType.display,
        trigger: new Date(alarmAt),
        description: `Last hours to cancel ${r.venue_name} for free (fee after ${r.free_cancellation_until})`,
      })
  }
  return calendar.toString()
}
