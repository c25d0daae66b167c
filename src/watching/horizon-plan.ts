// When a venue's horizon object asks the calendar next, and when each of the venue's days opens.
// Pure. While no rule is known the horizon is read every LEARNING_EVERY_MS, so the first move is
// placed within that; once a rule is known, rarely (to notice a change), and closely around each
// instant it predicts: every CLOSE_EVERY_MS from before the instant until the move is seen, which
// places the rule within a few seconds and tells the venue's watched days the moment they open.
import { addDays } from '../lib/zoned-time'
import type { HorizonMove, HorizonSeen } from './horizon-moves'
import type { ReleaseClock } from './release-clock'
import { type LearnedRule, openingOf, USE_CONFIDENCE } from './release-inference'

export const LEARNING_EVERY_MS = 60_000
export const KNOWN_EVERY_MS = 15 * 60_000
/** Close to an instant: a check every 2 s places it within a second or two. */
export const CLOSE_EVERY_MS = 2_000
/** A rule known only roughly is watched more sparsely, at most this far apart. */
const CLOSE_EVERY_MAX_MS = 15_000
/** The close watch starts at least this long before a predicted instant, and lasts this long after it. */
const CLOSE_MIN_WINDOW_MS = 10_000

export interface HorizonFacts {
  seen: HorizonSeen | null
  moves: readonly HorizonMove[]
  /** The learned rule (acted on only from USE_CONFIDENCE). */
  learned: LearnedRule | null
  /** The rule the venue's notes state, if any. */
  stated: { daysInAdvance: number; secondOfDay: number } | null
  zone: string
  clock: ReleaseClock
}

export interface HorizonCheck {
  at: number
  /** Part of a close watch around this predicted instant (the budget holds room for it); null: a routine look. */
  around: number | null
}

export const usableRule = (f: Pick<HorizonFacts, 'learned'>) => (f.learned && f.learned.confidence >= USE_CONFIDENCE ? f.learned : null)

/** The rules a prediction follows: the learned one, and the one before it while only one move shows the change. */
function rulesOf(f: HorizonFacts): { daysInAdvance: number; secondOfDay: number }[] {
  const learned = usableRule(f)
  if (!learned) return f.stated ? [f.stated] : []
  return learned.previous && learned.moves === 1 ? [learned, learned.previous] : [learned]
}

/** How widely and how often to watch around a predicted instant, from the rule's uncertainty. */
function closeWatch(f: HorizonFacts): { windowMs: number; everyMs: number } {
  const uncertaintyMs = ((usableRule(f)?.uncertaintySeconds ?? 30 * 60) / f.clock.speed) * 1000
  return {
    windowMs: Math.max(CLOSE_MIN_WINDOW_MS, 1.5 * uncertaintyMs),
    everyMs: Math.min(CLOSE_EVERY_MAX_MS, Math.max(CLOSE_EVERY_MS, uncertaintyMs / 10)),
  }
}

/** When the next day (the one after the last seen) should open, by each rule followed. */
function nextOpenings(f: HorizonFacts): number[] {
  if (!f.seen) return []
  const next = addDays(f.seen.lastDay, 1)
  return rulesOf(f).map((rule) => openingOf(rule, next, f.zone, f.clock))
}

/** The next calendar check, or null while nobody watches the venue. */
export function nextHorizonCheck(f: HorizonFacts, watchedUntil: number, now: number): HorizonCheck | null {
  if (now >= watchedUntil) return null
  if (!f.seen) return { at: now, around: null } // never looked: look now
  const known = usableRule(f) !== null
  const { windowMs, everyMs } = closeWatch(f)
  const openings = nextOpenings(f)
  // Past every predicted window and still not moved: the day is late, so look often until it opens.
  const late = known && openings.length > 0 && openings.every((r) => now > r + windowMs)
  // A routine look counts from the last one, whoever made it: the calendar pre-check's answers
  // show the horizon too (calendar-object.ts), and spare these calls where they come often enough.
  const every = known && !late ? KNOWN_EVERY_MS : LEARNING_EVERY_MS
  let next: HorizonCheck = { at: Math.max(now, f.seen.since + every), around: null }
  for (const r of known ? openings : []) {
    const at = now < r - windowMs ? r - windowMs : now <= r + windowMs ? now + everyMs : null
    if (at !== null && at < next.at) next = { at, around: r }
  }
  return next
}

/** The predicted instant whose close watch `now` falls in, if any: that check is part of a release's burst. */
export function closeWindowAt(f: HorizonFacts, now: number): number | null {
  if (!usableRule(f)) return null
  const { windowMs } = closeWatch(f)
  return nextOpenings(f).find((r) => now >= r - windowMs && now <= r + windowMs) ?? null
}

/**
 * The instants a watched day opens, for its release bursts: the moment a move showed it open (a
 * close watch tells it then), and the rule's prediction (the learned rule, else the stated one).
 * Null when nothing is known, so a subscription's own plan stands.
 */
export function openingsOfDay(f: HorizonFacts, day: string): number[] | null {
  const seenOpen = f.moves.filter((m) => m.from < day && day <= m.to).map((m) => m.notAfter)
  const predicted = rulesOf(f).map((rule) => openingOf(rule, day, f.zone, f.clock))
  const all = [...new Set([...predicted, ...seenOpen.slice(-1)])].sort((a, b) => a - b)
  return all.length > 0 ? all : null
}
