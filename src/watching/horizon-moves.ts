// A venue's booking horizon as the calendar shows it: `last_calendar_day` moves forward when
// a new day opens (docs/platform.md, "Calendar and release"). Each calendar answer is an
// observation; two in a row that differ bracket a move. Pure.

/** One calendar answer's `last_calendar_day`, and when the call left and came back (the state it shows lies between). */
export interface HorizonObservation {
  lastDay: string
  sentAt: number
  answeredAt: number
}

/** The horizon as last seen: its last day, and the latest moment it was known to be that (a lower bound of the next move). */
export interface HorizonSeen {
  lastDay: string
  since: number
}

/** The horizon moved from `from` to `to` after `notBefore` and before `notAfter`. */
export interface HorizonMove {
  from: string
  to: string
  notBefore: number
  notAfter: number
}

/** The moves a venue keeps: a fortnight's worth is enough to see a rule and a change of it. */
const MOVES_KEPT = 14

/**
 * Takes one observation. A later day than the one seen is a move, bracketed by the last answer
 * that still showed the old day (it was sent before the move happened) and this one (answered
 * after it). The same day narrows the next move's bracket. An earlier day is ignored: a calendar
 * answering from an older copy (it lags), never a horizon moving back.
 */
export function observeHorizon(seen: HorizonSeen | null, o: HorizonObservation): { seen: HorizonSeen; move: HorizonMove | null } {
  if (!seen) return { seen: { lastDay: o.lastDay, since: o.sentAt }, move: null }
  if (o.lastDay < seen.lastDay) return { seen, move: null }
  if (o.lastDay === seen.lastDay) return { seen: { lastDay: seen.lastDay, since: Math.max(seen.since, o.sentAt) }, move: null }
  const move = { from: seen.lastDay, to: o.lastDay, notBefore: seen.since, notAfter: Math.max(o.answeredAt, seen.since) }
  return { seen: { lastDay: o.lastDay, since: o.sentAt }, move }
}

/** Appends a move, keeping the newest MOVES_KEPT. */
export const withMove = (moves: readonly HorizonMove[], move: HorizonMove): HorizonMove[] => [...moves, move].slice(-MOVES_KEPT)

/** Whole days from `from` to `to` (YYYY-MM-DD). */
export const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000)
