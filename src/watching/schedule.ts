// A request's own watching schedule, pure: which venue-days it watches, and for each the plan
// the availability object follows — the interval (slower for far dates) and the venue's release
// instants for that date. The request registers it when it starts watching.
import { addDays, instantOf } from '../lib/zoned-time'
import { filterOf, type SlotFilter } from './match'
import type { VenueDay, WatchedSpec } from './news'
import { REAL_CLOCK, type ReleaseClock, secondOfDayOf } from './release-clock'

const DAY_MS = 24 * 60 * 60 * 1000

export interface WatchPlan {
  /** Intervals by time: each phase holds until `until` (null: from then on). */
  phases: { until: number | null; intervalMs: number }[]
  /** The instants at which this date's tables open (a release rule), for release bursts. */
  releases: number[]
}

export interface Subscription {
  requestId: string
  filter: SlotFilter
  plan: WatchPlan
  /** The availability object drops the subscription by itself after this (expiry or the window's end). */
  until: number
}

export interface ReleaseRule {
  venueId: number
  timeZone: string
  daysInAdvance: number
  time: string
}

/** The venue-days a request watches at `now`: each venue and each date whose window is still ahead. */
export function venueDaysOf(spec: WatchedSpec, now: number): VenueDay[] {
  const ahead = spec.dates.filter((day) => instantOf(day, spec.latest_time, spec.timezone) > now)
  return spec.venue_ids.flatMap((venueId) => ahead.map((day) => ({ venueId, day, partySize: spec.party_size })))
}

/** Far-off dates change slowly: more than 45 days away 5×, more than 14 days away 2× the interval. */
export function planFor(
  spec: WatchedSpec,
  venueDay: VenueDay,
  rules: ReleaseRule[],
  baseIntervalMs: number,
  clock: ReleaseClock = REAL_CLOCK,
): WatchPlan {
  const windowEnd = instantOf(venueDay.day, spec.latest_time, spec.timezone)
  const rule = rules.find((r) => r.venueId === venueDay.venueId)
  return {
    phases: [
      { until: windowEnd - 45 * DAY_MS, intervalMs: baseIntervalMs * 5 },
      { until: windowEnd - 14 * DAY_MS, intervalMs: baseIntervalMs * 2 },
      { until: null, intervalMs: baseIntervalMs },
    ],
    releases: rule ? [clock.instantOf(addDays(venueDay.day, -rule.daysInAdvance), secondOfDayOf(rule.time), rule.timeZone)] : [],
  }
}

export function subscriptionFor(
  requestId: string,
  spec: WatchedSpec,
  expiresAt: number,
  venueDay: VenueDay,
  rules: ReleaseRule[],
  baseIntervalMs: number,
  clock: ReleaseClock = REAL_CLOCK,
): Subscription {
  const windowEnd = instantOf(venueDay.day, spec.latest_time, spec.timezone)
  const plan = planFor(spec, venueDay, rules, baseIntervalMs, clock)
  return { requestId, filter: filterOf(spec), plan, until: Math.min(expiresAt, windowEnd) }
}
