// How alerts write dates and times, as the pages do: "Sat, Nov 28 · 9:30 PM ET", in the venue's
// zone with its short name.

import { zoneName } from '../lib/zone-name'
import { instantOf } from '../lib/zoned-time'

const DAY_FORMAT = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' })

/** A venue-local date as the platform lists it ("2026-11-28" → "Sat, Nov 28"). */
export function dayWhen(day: string): string {
  return DAY_FORMAT.format(new Date(`${day}T00:00:00Z`))
}

/**
 * A venue-local date and time as the platform lists them ("2026-11-28", "21:30"), with the
 * venue's short zone name when it is known ("Sat, Nov 28 · 9:30 PM ET"), as the pages write it.
 */
export function tableWhen(day: string, time: string, timeZone?: string): string {
  const [h = 0, m = 0] = time.split(':').map(Number)
  const clock = `${h % 12 === 0 ? 12 : h % 12}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`
  const zone = timeZone ? ` ${zoneName(timeZone, instantOf(day, time, timeZone))}` : ''
  return `${dayWhen(day)} · ${clock}${zone}`
}

/** An instant in a zone, in the one time style with the zone's short name ("Sat, Nov 28 · 9:30 PM ET"). */
export function instantWhen(ms: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone,
  }).formatToParts(new Date(ms))
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? ''
  // The same zone name as tableWhen and the pages ("ET", not "EST"): one style everywhere.
  return `${part('weekday')}, ${part('month')} ${part('day')} · ${part('hour')}:${part('minute')} ${part('dayPeriod')} ${zoneName(timeZone, ms)}`
}
