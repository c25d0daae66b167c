// A venue's release rule, learned from the moves of its booking horizon (horizon-moves.ts):
// days ahead and the local time at which a new day opens, with how sure we are. Pure.
//
// Each move says: day `to` opened between `notBefore` and `notAfter`. Read in the venue's clock,
// that is a bracket of the rule's *lead*, how long before midnight starting day `to` it opened
// (days × 24 h − time of day), so that a rule of "30 days ahead at 10:00" is one number whatever
// the date or a bracket crossing midnight. Moves that agree on the lead (their brackets overlap)
// place it ever more narrowly. The newest move decides: older moves that disagree belong to an
// earlier rule (the venue moved its release time), kept as `previous`.
//
// A calendar that lags shows a move late, never early (docs/platform.md, "Calendar and release",
// says nothing of its freshness): its brackets then disagree by the lag, seconds to minutes,
// always towards a later time. Brackets apart by less than LAG_TOLERANCE_S are one rule read
// late; the least late (earliest) one places it, and the rule is marked `lagging`.
import { daysBetween, type HorizonMove } from './horizon-moves'
import type { ReleaseClock } from './release-clock'

const DAY_S = 86_400
/** A move bracketed more loosely than this (of the venue's clock) says which days, not when. */
const MAX_BRACKET_S = 6 * 3600
/**
 * A move of more days than this is not a daily release (a day or two caught up after closed days
 * is): a venue that opens a month at once, or a horizon that changed for another reason.
 */
const MAX_DAYS_PER_MOVE = 3
/** Brackets this far apart (real seconds) are one rule seen through a lagging calendar; further apart, two rules. */
const LAG_TOLERANCE_S = 180
/** A learned rule is acted on (bursts, shown, preferred to the venue's notes) from this confidence. */
export const USE_CONFIDENCE = 0.4

export interface LearnedRule {
  daysInAdvance: number
  /** Seconds after the venue's local midnight (0 … 86,399). */
  secondOfDay: number
  /** Half the width of what the moves allow, in the venue's seconds. */
  uncertaintySeconds: number
  /** 0 … 1: how many moves agree, how narrowly, and whether they disagree by a lag. */
  confidence: number
  /** The moves with a usable bracket that agree with it. */
  moves: number
  lagging: boolean
  /** The rule older moves followed, when the newest show another: the venue may have moved its time, or drifted once. */
  previous: { daysInAdvance: number; secondOfDay: number } | null
}

interface Reading {
  /** The lead's bracket, in the venue's seconds. */
  lo: number
  hi: number
}

/** A move as a bracket of the lead; null when too loose to place a time. */
function readingOf(m: HorizonMove, zone: string, clock: ReleaseClock): Reading | null {
  const after = clock.wallAt(m.notAfter, zone)
  const before = clock.wallAt(m.notBefore, zone)
  // Seconds from midnight starting `after.date`: negative when the bracket begins the day before.
  const start = before.secondOfDay - daysBetween(before.date, after.date) * DAY_S
  if (after.secondOfDay - start > MAX_BRACKET_S || daysBetween(m.from, m.to) > MAX_DAYS_PER_MOVE) return null
  const midnightsAhead = daysBetween(after.date, m.to)
  return { lo: midnightsAhead * DAY_S - after.secondOfDay, hi: midnightsAhead * DAY_S - start }
}

interface Group {
  members: Reading[]
  lo: number
  hi: number
  lagging: boolean
}

/** The newest reading's group: every older reading that overlaps it, or misses it by no more than `tolerance`. */
function groupFrom(readings: Reading[], tolerance: number): { group: Group; others: Reading[] } {
  const [newest, ...older] = [...readings].reverse()
  if (!newest) throw new Error('a group needs a reading')
  const group: Group = { members: [newest], lo: newest.lo, hi: newest.hi, lagging: false }
  const others: Reading[] = []
  for (const r of older) {
    const lo = Math.max(group.lo, r.lo)
    const hi = Math.min(group.hi, r.hi)
    if (lo <= hi && !group.lagging) {
      group.members.push(r)
      group.lo = lo
      group.hi = hi
      continue
    }
    const gap = Math.max(r.lo - group.hi, group.lo - r.hi, 0)
    if (gap <= tolerance || (lo <= hi && group.lagging)) {
      group.members.push(r)
      group.lagging = true
      continue
    }
    others.unshift(r)
  }
  if (group.lagging) {
    // Read late, never early: the largest lead seen (the earliest opening) is the least late.
    const earliest = group.members.reduce((a, b) => (b.lo > a.lo ? b : a))
    group.lo = earliest.lo
    group.hi = earliest.hi
  }
  return { group, others }
}

/** Days ahead and time of day from a lead (seconds before midnight starting the opened day). */
function ruleOfLead(lead: number): { daysInAdvance: number; secondOfDay: number } {
  const daysInAdvance = Math.max(0, Math.ceil(lead / DAY_S))
  return { daysInAdvance, secondOfDay: Math.min(DAY_S - 1, Math.max(0, daysInAdvance * DAY_S - lead)) }
}

function confidenceOf(agreeing: number, uncertaintyRealS: number, lagging: boolean, changed: boolean): number {
  const base = agreeing >= 3 ? Math.min(0.98, 0.9 + 0.02 * (agreeing - 3)) : agreeing === 2 ? 0.8 : 0.6
  const precise = uncertaintyRealS <= 60 ? 1 : uncertaintyRealS <= 600 ? 0.85 : 0.6
  return Math.round(base * precise * (lagging ? 0.85 : 1) * (changed && agreeing === 1 ? 0.8 : 1) * 100) / 100
}

/** The rule the moves show, or null while none is bracketed narrowly enough. */
export function learnRule(moves: readonly HorizonMove[], zone: string, clock: ReleaseClock): LearnedRule | null {
  const readings = moves.flatMap((m) => readingOf(m, zone, clock) ?? [])
  if (readings.length === 0) return null
  const tolerance = LAG_TOLERANCE_S * clock.speed
  const { group, others } = groupFrom(readings, tolerance)
  const lead = (group.lo + group.hi) / 2
  const uncertaintySeconds = Math.round((group.hi - group.lo) / 2)
  const previous = others.length > 0 ? groupFrom(others, tolerance).group : null
  const prior = previous ? ruleOfLead((previous.lo + previous.hi) / 2) : null
  return {
    ...ruleOfLead(lead),
    uncertaintySeconds,
    confidence: confidenceOf(group.members.length, uncertaintySeconds / clock.speed, group.lagging, prior !== null),
    moves: group.members.length,
    lagging: group.lagging,
    previous: prior,
  }
}

/** The lead of a rule: seconds before the local midnight that starts the day it opens. */
const leadOf = (rule: { daysInAdvance: number; secondOfDay: number }) => rule.daysInAdvance * DAY_S - rule.secondOfDay

/** The instant `day` opens under `rule`, by the venue's clock. */
export const openingOf = (rule: { daysInAdvance: number; secondOfDay: number }, day: string, zone: string, clock: ReleaseClock) =>
  clock.instantOf(day, -leadOf(rule), zone)

/**
 * Whether a learned rule and the one the venue's notes state disagree: other days, or a time
 * further apart than the learned rule's own uncertainty and a minute. The learned one wins;
 * both are kept, so the disagreement can be shown.
 */
export function disagrees(learned: LearnedRule, stated: { daysInAdvance: number; secondOfDay: number }, clock: ReleaseClock): boolean {
  return Math.abs(leadOf(learned) - leadOf(stated)) > Math.max(60 * clock.speed, learned.uncertaintySeconds)
}
