// GET /4/venue/calendar: a venue's status per day for one party size, over a date range
// (docs/platform.md, "Calendar and release"). Public pollers use it as a cheap pre-check before
// /4/find; its answer may lag behind the tables' real state, so the sandbox answers from the state
// `lagMs` ago (0 unless set through the control API), as a cached calendar would.
import { addDays, todayIn } from '../clock'
import { HORIZON_DAYS, isOffered, releaseInstant } from '../inventory'
import type { SandboxVenue } from '../model'
import { slotsOnSaleAt } from './slots'

/** The platform's words for a day (`[idx 22790378784]`, `[idx 40832597357]`). */
export type CalendarStatus = 'available' | 'sold-out' | 'closed' | 'not available'

export interface CalendarDay {
  date: string
  status: CalendarStatus
}

const LAG_KEY = 'calendar_lag_ms'

export function setCalendarLag(sql: SqlStorage, lagMs: number): void {
  sql.exec('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)', LAG_KEY, String(lagMs))
}

export function calendarLagOf(sql: SqlStorage): number {
  const row = sql.exec<{ value: string }>('SELECT value FROM settings WHERE key = ?', LAG_KEY).toArray()[0]
  return row ? Number(row.value) : 0
}

/** The last day whose tables were released at `at`: what `last_calendar_day` says. */
export function lastCalendarDay(venue: SandboxVenue, at: number): string {
  const today = todayIn(venue.zone, at)
  let last = today
  for (let i = 0; i < HORIZON_DAYS; i++) {
    const day = addDays(today, i)
    if (at >= releaseInstant(venue, day)) last = day
  }
  return last
}

/**
 * Each day of [start, end] as the calendar saw it `lagMs` before `now`. Which days are released,
 * today's date and whether a table's time has passed follow the world's release clock
 * (`releaseTime`, store/release-rules.ts); when tables opened and were taken is real time.
 */
export function calendarOf(
  sql: SqlStorage,
  venue: SandboxVenue,
  partySize: number,
  range: { start: string; end: string },
  now: number,
  lagMs: number,
  releaseTime: (realMs: number) => number = (ms) => ms,
): { days: CalendarDay[]; lastDay: string } {
  const at = now - lagMs
  const seenAt = releaseTime(at)
  const lastDay = lastCalendarDay(venue, seenAt)
  const days: CalendarDay[] = []
  for (let day = range.start; day <= range.end; day = addDays(day, 1))
    days.push({ date: day, status: statusOn(sql, venue, partySize, day, { at, seenAt }, lastDay) })
  return { days, lastDay }
}

function statusOn(
  sql: SqlStorage,
  venue: SandboxVenue,
  partySize: number,
  day: string,
  when: { at: number; seenAt: number },
  lastDay: string,
): CalendarStatus {
  if (day > lastDay || day < todayIn(venue.zone, when.seenAt)) return 'not available'
  const open = slotsOnSaleAt(sql, venue, day, when.at).some(
    (s) => isOffered(venue, s, when.seenAt) && s.partyMin <= partySize && partySize <= s.partyMax,
  )
  // A table on the venue's usual closed day (a special opening) is on sale like any other: the
  // calendar and find agree on it. The bench found a calendar saying "closed" over tables find offered.
  if (open) return 'available'
  return venue.closedWeekday === new Date(`${day}T12:00:00Z`).getUTCDay() ? 'closed' : 'sold-out'
}
