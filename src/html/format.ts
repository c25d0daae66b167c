// How pages write times: one style everywhere, "Sat, Nov 28 · 9:30 PM ET". A time that belongs
// to a restaurant is written in the venue's zone; any other instant (a token's expiry, an
// inbox entry) in the viewer's zone, which the page script reports in the `tz` cookie (the
// zone Cloudflare locates the request in until it has). The zone is always named, so a time is never ambiguous.
import { createContext, useContext } from 'hono/jsx'
import { zoneName } from '../lib/zone-name'
import { instantOf, isValidTimeZone } from '../lib/zoned-time'

/** The viewer's IANA zone for the page being rendered (renderPage provides it). */
export const ViewerZone = createContext('UTC')

export const VIEWER_ZONE_COOKIE = 'tz'

const knownZone = (zone: unknown): zone is string => typeof zone === 'string' && zone.length <= 80 && isValidTimeZone(zone)

/**
 * The zone named by the `tz` cookie when it is one Intl knows; before the page script has set it
 * (the first page, or no JavaScript), the zone Cloudflare located the request in
 * (`request.cf.timezone`, "Timezone of the incoming request", developers.cloudflare.com/workers/
 * runtime-apis/request/#incomingrequestcfproperties), so no page shows UTC to a diner elsewhere.
 * UTC only when neither is known.
 */
export function viewerZoneOf(cookie: string | undefined, located?: unknown): string {
  if (knownZone(cookie)) return cookie
  return knownZone(located) ? located : 'UTC'
}

const formatters = new Map<string, Intl.DateTimeFormat>()
function formatter(key: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat {
  let f = formatters.get(key)
  if (!f) {
    f = make()
    formatters.set(key, f)
  }
  return f
}

/** "Sat, Nov 28" (with the year when it is not this year's). */
function dayIn(ms: number, timeZone: string, now = Date.now()): string {
  const year = (at: number) => formatter(`y:${timeZone}`, () => new Intl.DateTimeFormat('en-US', { year: 'numeric', timeZone })).format(at)
  const withYear = year(ms) !== year(now)
  return formatter(
    `d:${withYear}:${timeZone}`,
    () =>
      new Intl.DateTimeFormat('en-US', {
        weekday: 'short',
        month: 'short',
        day: 'numeric',
        ...(withYear ? { year: 'numeric' } : {}),
        timeZone,
      }),
  ).format(ms)
}

/** "9:30 PM" */
function clockIn(ms: number, timeZone: string): string {
  return formatter(`t:${timeZone}`, () => new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone })).format(ms)
}

/** "Sat, Nov 28 · 9:30 PM ET" for an instant, in the given zone. */
function formatInstant(ms: number, timeZone: string): string {
  return `${dayIn(ms, timeZone)} · ${clockIn(ms, timeZone)} ${zoneName(timeZone, ms)}`
}

/** The same style for a venue's wall-clock date and time ("2026-11-28", "21:30"). */
export function formatLocal(date: string, time: string, timeZone: string): string {
  return formatInstant(instantOf(date, time, timeZone), timeZone)
}

/** "9:30 PM ET" for a venue's wall-clock time on a date (a table in a list under its date). */
export function formatLocalClock(date: string, time: string, timeZone: string): string {
  const ms = instantOf(date, time, timeZone)
  return `${clockIn(ms, timeZone)} ${zoneName(timeZone, ms)}`
}

/** "Sat, Nov 28" for a calendar date of a request (a date, so no zone shift). */
export function formatCalendarDate(date: string): string {
  return dayIn(Date.parse(`${date}T12:00:00Z`), 'UTC')
}

/** "9:30 PM" for a wall-clock "21:30". */
export function formatClock(time: string): string {
  return clockIn(Date.parse(`2000-01-01T${time}:00Z`), 'UTC')
}

/** An instant in the viewer's zone; call it while a page renders (it reads ViewerZone). */
export function formatDateTime(ms: number): string {
  return formatInstant(ms, useContext(ViewerZone))
}

/** A day in the viewer's zone; call it while a page renders. */
export function formatDate(ms: number): string {
  return dayIn(ms, useContext(ViewerZone))
}

/** "12 s ago", "5 min ago", "3 h ago", "2 days ago". */
export function ago(ms: number, now: number): string {
  return `${duration(Math.max(0, now - ms))} ago`
}

/** "45 s", "12 min", "3 h 20 min", "2 days 4 h". */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000)
  if (s < 60) return `${s} s`
  const min = Math.floor(s / 60)
  if (min < 60) return `${min} min`
  const h = Math.floor(min / 60)
  if (h < 24) return min % 60 ? `${h} h ${min % 60} min` : `${h} h`
  const days = Math.floor(h / 24)
  return `${days} day${days === 1 ? '' : 's'}${h % 24 ? ` ${h % 24} h` : ''}`
}
