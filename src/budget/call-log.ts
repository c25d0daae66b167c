// The calls the budget let through, per second, over the last hour: the most in any 1 s and any
// 10 s window, and how many of each tier (for /health and the benchmark). Pure, in memory.
import { type PerTier, type Tier, zeroPerTier } from './call-priority'

const KEPT_SECONDS = 3600

export interface CallLog {
  /** second (epoch s) → calls granted in it */
  perSecond: Map<number, number>
  byTier: Map<number, PerTier>
}

export const emptyCallLog = (): CallLog => ({ perSecond: new Map(), byTier: new Map() })

export function logCalls(log: CallLog, at: number, tier: Tier, count: number): void {
  const second = Math.floor(at / 1000)
  log.perSecond.set(second, (log.perSecond.get(second) ?? 0) + count)
  const tiers = log.byTier.get(second) ?? zeroPerTier()
  tiers[tier] += count
  log.byTier.set(second, tiers)
  // Forget what is older than an hour, at most once a second's worth of work.
  for (const s of log.perSecond.keys()) {
    if (s > second - KEPT_SECONDS) break
    log.perSecond.delete(s)
    log.byTier.delete(s)
  }
}

export interface CallFigures {
  /** Over the last hour. */
  calls: number
  callsByTier: PerTier
  maxCallsInAnySecond: number
  maxCallsInAny10Seconds: number
}

export function callFigures(log: CallLog, now: number): CallFigures {
  const last = Math.floor(now / 1000)
  const seconds = [...log.perSecond.entries()].filter(([s]) => s > last - KEPT_SECONDS)
  let max1 = 0
  let max10 = 0
  let calls = 0
  for (const [s, n] of seconds) {
    calls += n
    max1 = Math.max(max1, n)
    let window = 0
    for (let k = 0; k < 10; k++) window += log.perSecond.get(s + k) ?? 0
    max10 = Math.max(max10, window)
  }
  const callsByTier = zeroPerTier()
  for (const [s, tiers] of log.byTier) if (s > last - KEPT_SECONDS) for (const t of Object.keys(tiers) as Tier[]) callsByTier[t] += tiers[t]
  return { calls, callsByTier, maxCallsInAnySecond: max1, maxCallsInAny10Seconds: max10 }
}
