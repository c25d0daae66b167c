// When a request polls next: a configured cadence with jitter, slower for far dates, and a
// short bounded burst around a venue's known release instant. Pure.
import { addDays, instantOf } from '../../lib/zoned-time'
import type { RequestSpec } from '../schemas'

export interface Cadence {
  /** The deployment's polling interval (POLL_INTERVAL_SECONDS). */
  intervalMs: number
  /** ± fraction of random spread, so many requests do not poll in step. */
  jitter: number
}

/** No deployment setting goes below this: it protects the users' platform accounts. */
export const MIN_INTERVAL_MS = 15_000
export const BURST_BEFORE_MS = 30_000
export const BURST_AFTER_MS = 120_000
export const BURST_INTERVAL_MS = 5_000
const DAY_MS = 24 * 60 * 60 * 1000

export function cadenceFrom(env: { POLL_INTERVAL_SECONDS?: string }): Cadence {
  const seconds = Number(env.POLL_INTERVAL_SECONDS ?? '60')
  const intervalMs = Number.isFinite(seconds) ? Math.max(MIN_INTERVAL_MS, seconds * 1000) : 60_000
  return { intervalMs, jitter: 0.1 }
}

export interface ReleaseRule {
  venueId: number
  timeZone: string
  daysInAdvance: number
  time: string
}

/** The instants at which the requested dates' tables open, per the venues' release rules. */
export function releaseInstants(spec: RequestSpec, rules: ReleaseRule[]): number[] {
  return rules.flatMap((r) =>
    spec.venue_ids.includes(r.venueId) ? spec.dates.map((d) => instantOf(addDays(d, -r.daysInAdvance), r.time, r.timeZone)) : [],
  )
}

export function inBurst(releases: number[], now: number): boolean {
  return releases.some((r) => now >= r - BURST_BEFORE_MS && now <= r + BURST_AFTER_MS)
}

/** Far-off dates change slowly: poll them less often. */
export function intervalFor(_spec: RequestSpec, windowsEnd: number[], cadence: Cadence, now: number): number {
  const nextEnd = Math.min(...windowsEnd.filter((e) => e > now))
  const daysAway = (nextEnd - now) / DAY_MS
  const factor = daysAway > 45 ? 5 : daysAway > 14 ? 2 : 1
  return cadence.intervalMs * factor
}

export function nextPollAt(
  intervalMs: number,
  cadence: Cadence,
  releases: number[],
  now: number,
  random: () => number = Math.random,
): number {
  if (inBurst(releases, now)) return now + BURST_INTERVAL_MS
  const spread = intervalMs * cadence.jitter * (2 * random() - 1)
  const normal = now + Math.max(MIN_INTERVAL_MS, intervalMs + spread)
  const burstStarts = releases.map((r) => r - BURST_BEFORE_MS).filter((start) => start > now && start < normal)
  return Math.min(normal, ...burstStarts)
}
