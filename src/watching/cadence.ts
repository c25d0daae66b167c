// How often an availability object asks the platform: the fastest interval any subscriber's
// plan needs now, and release bursts around known release instants. Pure.
import type { WatchPlan } from './schedule'

/** No deployment setting goes below this outside release bursts: it protects the platform accounts. */
export const MIN_INTERVAL_MS = 15_000
/** Release bursts: fast from 2 s before the instant to 10 s after it, then slower until 2 minutes after. */
const BURST_LEAD_MS = 2_000
const BURST_FAST_FOR_MS = 10_000
const BURST_SLOW_FOR_MS = 120_000
export const BURST_FAST_MS = 500
export const BURST_SLOW_MS = 5_000

export function baseIntervalFrom(env: { POLL_INTERVAL_SECONDS?: string }): number {
  const seconds = Number(env.POLL_INTERVAL_SECONDS ?? '60')
  return Number.isFinite(seconds) ? Math.max(MIN_INTERVAL_MS, seconds * 1000) : 60_000
}

/** The burst interval in effect at `now`, or null outside every burst. */
export function burstIntervalAt(releases: readonly number[], now: number): number | null {
  if (releases.some((r) => now >= r - BURST_LEAD_MS && now < r + BURST_FAST_FOR_MS)) return BURST_FAST_MS
  if (releases.some((r) => now >= r + BURST_FAST_FOR_MS && now < r + BURST_SLOW_FOR_MS)) return BURST_SLOW_MS
  return null
}

export function intervalAt(plan: WatchPlan, now: number): number {
  const phase = plan.phases.find((p) => p.until === null || now < p.until) ?? plan.phases.at(-1)
  return Math.min(phase?.intervalMs ?? MIN_INTERVAL_MS, burstIntervalAt(plan.releases, now) ?? Number.POSITIVE_INFINITY)
}

/** True while any plan is in a release burst: such polls count against the venue's cap. */
export function bursting(plans: readonly WatchPlan[], now: number): boolean {
  return plans.some((p) => burstIntervalAt(p.releases, now) !== null)
}

/**
 * True from a release instant to the end of its burst: the budget's burst tier. The lead before
 * the instant polls fast too, but as an ordinary poll: under a tight budget those calls are held
 * back for the instant itself, when the tables appear (budget/call-window.ts).
 */
export function released(plans: readonly WatchPlan[], now: number): boolean {
  return plans.some((p) => p.releases.some((r) => now >= r && now < r + BURST_SLOW_FOR_MS))
}

/** The next moment after `now` a burst changes pace (its lead starts, or its instant comes), or null. */
export function nextBurstEdge(plans: readonly WatchPlan[], now: number): number | null {
  const edges = plans.flatMap((p) => p.releases.flatMap((r) => [r - BURST_LEAD_MS, r])).filter((e) => e > now)
  return edges.length > 0 ? Math.min(...edges) : null
}

/** The release instant a poll at `alarmAt` (set at `now`) leads into, if any: the one to announce to the budget. */
export function releaseAhead(plans: readonly WatchPlan[], now: number, alarmAt: number): number | null {
  const ahead = plans.flatMap((p) => p.releases).filter((r) => r > now && r - BURST_LEAD_MS <= alarmAt)
  return ahead.length > 0 ? Math.min(...ahead) : null
}

/**
 * When to poll next after a poll at `now`: the fastest interval any plan needs, pulled forward
 * to the start of a release burst that begins before it.
 */
export function nextPollAt(plans: readonly WatchPlan[], now: number): number {
  if (plans.length === 0) return now + MIN_INTERVAL_MS
  const gap = Math.min(...plans.map((p) => intervalAt(p, now)))
  const normal = now + gap
  const burstStarts = plans.flatMap((p) => p.releases.map((r) => r - BURST_LEAD_MS)).filter((s) => s > now && s < normal)
  return Math.min(normal, ...burstStarts)
}

/** After consecutive failed polls: twice the interval, doubling again per failure, at most 2 minutes. */
const FAILURE_BACKOFF_MAX_MS = 120_000

export function backoffAfter(failures: number, intervalMs: number, retryAfterMs = 0): number {
  const doubled = Math.max(intervalMs, BURST_FAST_MS) * 2 ** Math.max(1, failures)
  return Math.max(retryAfterMs, Math.min(FAILURE_BACKOFF_MAX_MS, doubled))
}

/** How often a venue-day is checked now (the budget's stretch included) and how often its requests planned. */
export interface Cadence {
  everyMs: number | null
  plannedMs: number | null
}
