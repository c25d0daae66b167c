// The service-wide budget's bucket (issue 23 item 2): no window of 10 s above 10 × budget × 1.1,
// later tiers leave room for earlier ones, bookings never wait, demand is what tiers would ask.
import { describe, expect, it } from 'vitest'
import { allocationOf, type Bucket, demandPerTier, emptyDemand, noteDemand, takeCalls } from '../../src/budget/budget-bucket'
import { TIERS, type Tier } from '../../src/budget/call-priority'
import { NOW } from './fixtures'

/**
 * Each tier wants a call every `everyMs` (10 ms: as fast as it can) for 60 s, and asks again at
 * each tick (10 ms) until it gets it; returns the calls granted.
 */
function flood(budget: number, tiers: readonly Tier[], everyMs: Partial<Record<Tier, number>> = {}): { at: number; tier: Tier }[] {
  let bucket: Bucket | null = null
  const granted: { at: number; tier: Tier }[] = []
  const due = new Map<Tier, number>(tiers.map((t) => [t, NOW]))
  for (let t = NOW; t < NOW + 60_000; t += 10) {
    for (const tier of tiers) {
      if ((due.get(tier) ?? NOW) > t) continue
      const got = takeCalls(bucket, budget, tier, 1, t)
      bucket = got.bucket
      if (got.waitMs > 0) continue
      granted.push({ at: t, tier })
      due.set(tier, (due.get(tier) ?? NOW) + (everyMs[tier] ?? 10))
    }
  }
  return granted
}

describe('the budget’s bucket', () => {
  it('keeps every 10 s window under 10 × budget × 1.1, whoever asks', () => {
    for (const budget of [1, 5, 20]) {
      const calls = flood(budget, TIERS)
      for (const c of calls) {
        const inWindow = calls.filter((o) => o.at >= c.at && o.at < c.at + 10_000).length
        expect(inWindow).toBeLessThanOrEqual(10 * budget * 1.1)
      }
    }
  })

  it('gives bursts all they ask, then near dates before far dates, when all ask more than the budget', () => {
    // Budget 5 a second; bursts ask 2 a second, near and far as fast as they can (far asks first).
    const calls = flood(5, ['far', 'near', 'burst'], { burst: 500 })
    const count = (tier: Tier) => calls.filter((c) => c.tier === tier).length
    expect(count('burst')).toBeGreaterThanOrEqual(118)
    expect(count('near')).toBeGreaterThan(150)
    expect(count('far')).toBeLessThan(10)
  })

  it('lets a booking through at once from an empty bucket', () => {
    let bucket: Bucket | null = null
    for (let i = 0; i < 10; i++) bucket = takeCalls(bucket, 5, 'burst', 1, NOW).bucket
    expect(takeCalls(bucket, 5, 'near', 1, NOW).waitMs).toBeGreaterThan(0)
    expect(takeCalls(bucket, 5, 'booking', 1, NOW).waitMs).toBe(0)
  })

  it('measures demand as the calls each tier would make at its planned cadence', () => {
    const demand = emptyDemand()
    for (let i = 0; i < 10; i++) noteDemand(demand, { tier: 'near', cost: 1, key: `vd${i}`, intervalMs: 10_000 }, NOW)
    noteDemand(demand, { tier: 'far', cost: 1, key: 'far', intervalMs: 100_000 }, NOW)
    noteDemand(demand, { tier: 'near', cost: 1, key: 'vd0', intervalMs: 10_000 }, NOW + 1000) // the same venue-day again
    const d = demandPerTier(demand, NOW + 1000)
    expect(d.near).toBeCloseTo(1)
    expect(d.far).toBeCloseTo(0.01)
    // A venue-day that stops asking is forgotten.
    expect(demandPerTier(demand, NOW + 10 * 60_000).near).toBe(0)
    const a = allocationOf(demand, 0.5, NOW + 1000)
    // Far dates keep their floor (here all of their 0.01 a second): near gets the other 0.49.
    expect(a.granted.far).toBeCloseTo(0.01)
    expect(a.stretch.near).toBeCloseTo(1 / 0.49)
    expect(a.shortfall).toBeGreaterThan(0.5)
  })
})
