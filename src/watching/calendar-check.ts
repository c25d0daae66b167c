// The calendar pre-check: before asking /4/find for a venue-day, one
// /4/venue/calendar call per (venue, party size) and round tells which of its dates have anything
// open (docs/platform.md, "Calendar and release": public pollers use it so, [idx 66170303566],
// [idx 68861347981], and fall back to find when it answers 500, [idx 59341786801]). Pure.
import type { CalendarStatus } from '../platform/api'

/** A find for every date at least this often, whatever the calendar says: it may lag behind the tables. */
export const DEFAULT_GUARD_MS = 10 * 60_000
/** No operator setting goes below this: a guard as fast as the cadence is no pre-check at all. */
const MIN_GUARD_MS = 60_000

export interface CalendarSettings {
  /** Off: every poll is a find (CALENDAR_PRECHECK = "off"). */
  on: boolean
  guardMs: number
}

export function calendarSettingsFrom(env: { CALENDAR_PRECHECK?: string; CALENDAR_GUARD_SECONDS?: string }): CalendarSettings {
  const seconds = Number(env.CALENDAR_GUARD_SECONDS ?? '')
  const guardMs = env.CALENDAR_GUARD_SECONDS && Number.isFinite(seconds) ? Math.max(MIN_GUARD_MS, seconds * 1000) : DEFAULT_GUARD_MS
  return { on: env.CALENDAR_PRECHECK !== 'off', guardMs }
}

/** What the calendar said of this date: a status, or that asking it failed or answered oddly. */
export type CalendarView = { kind: 'answered'; status: CalendarStatus | undefined } | { kind: 'failed' }

export type PollKind =
  | { kind: 'find'; why: 'off' | 'burst' | 'device' | 'seen' | 'calendar_failed' | 'calendar_odd' | 'available' | 'guard' }
  /** The calendar says nothing is open for the party, as the last find did: no find this round. */
  | { kind: 'skip' }

export interface PollSituation {
  settings: CalendarSettings
  /** In a release burst: straight to find, every time (tables appear and go in seconds). */
  bursting: boolean
  /** Checked by the user's paired device: the device asks find itself, no pre-check. */
  viaDevice: boolean
  /** The last find saw tables for this party (matching or not). */
  sawTables: boolean
  /** null when the pre-check does not need to ask (see needsCalendar). */
  calendar: CalendarView | null
  lastFindAt: number | null
  now: number
}

/** Whether the calendar must be asked before deciding (saves the call where find runs anyway). */
export function needsCalendar(s: Omit<PollSituation, 'calendar'>): boolean {
  return s.settings.on && !s.bursting && !s.viaDevice && !s.sawTables && !guardDue(s)
}

const guardDue = (s: Pick<PollSituation, 'lastFindAt' | 'now' | 'settings'>) =>
  s.lastFindAt === null || s.now - s.lastFindAt >= s.settings.guardMs

/**
 * Find or skip. Only a calendar that answered and says the date has nothing open for the party
 * (sold out, closed, not yet released) skips, and only when the last find saw no tables either:
 * a calendar that contradicts the last find is checked by find, so the set of tables seen never
 * changes on the calendar's word alone.
 */
export function pollKind(s: PollSituation): PollKind {
  if (!s.settings.on) return { kind: 'find', why: 'off' }
  if (s.bursting) return { kind: 'find', why: 'burst' }
  if (s.viaDevice) return { kind: 'find', why: 'device' }
  if (s.sawTables) return { kind: 'find', why: 'seen' }
  if (guardDue(s)) return { kind: 'find', why: 'guard' }
  if (!s.calendar || s.calendar.kind === 'failed') return { kind: 'find', why: 'calendar_failed' }
  const status = s.calendar.status
  if (status === 'available') return { kind: 'find', why: 'available' }
  if (status === 'sold_out' || status === 'closed' || status === 'not_available') return { kind: 'skip' }
  return { kind: 'find', why: 'calendar_odd' }
}
