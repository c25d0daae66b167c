// The calendar answer (wire.ts calendarAnswer) in the service's words. Pure.
import type { CalendarStatus, VenueCalendar } from './api'
import type { CalendarAnswer } from './wire'

/** The platform's words (`[idx 22790378784]`; docs/platform.md, "Calendar and release"): anything else is `unknown`. */
const STATUS: Record<string, CalendarStatus> = {
  available: 'available',
  'sold-out': 'sold_out',
  closed: 'closed',
  'not available': 'not_available',
}

export function calendarOf(answer: CalendarAnswer): VenueCalendar {
  const days: Record<string, CalendarStatus> = {}
  for (const entry of answer.scheduled) days[entry.date] = STATUS[entry.inventory.reservation.toLowerCase()] ?? 'unknown'
  return { days, lastCalendarDay: answer.last_calendar_day ?? null }
}
