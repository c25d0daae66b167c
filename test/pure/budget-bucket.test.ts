// The service-wide budget's lease rule: no window of 10 s above 10 × budget,
// later tiers leave room for earlier ones, bookings never wait, a release instant gets the
// window's room, demand is what tiers would ask.
import { describe, expect, it } from 'vitest'
import { allocationOf, demandPerTier, emptyDemand, noteDemand } from '../../src/budget/budget-bucket'
import { TIERS, type Tier } from '../../src/budget/call-priority'
import { decideLease, emptyLeaseState, type LeaseState } from '../../src/budget/lease-rule'
import { NOW } from './fixtures'

/**
 * Each tier wants a call every `everyMs` (10 ms: as fast as it can) for 60 s, and asks again at
 * each tick (10 ms) until it gets it; returns the calls granted.
 */
function flood(
  budget: number,
  tiers: readonly Tier[],
  everyMs: Partial<Record<Tier, number>> = {},
  state: LeaseState = emptyLeaseState(),
): { at: number; tier: Tier }[] {
  const granted: { at: number; tier: Tier }[] = []
  const due = new Map<Tier, number>(tiers.map((t) => [t, NOW]))
  for (let t = NOW; t < NOW + 60_000; t += 10) {
    for (const tier of tiers) {
      if ((due.get(tier) ?? NOW) > t) continue
      if (decideLease(state, budget, { tier: tier, cost: 1 }, t) > 0) continue
      granted.push({ at: t, tier })
      due.set(tier, (due.get(tier) ?? NOW) + (everyMs[tier] ?? 10))
    }
  }
  return granted
}

const mostInAny10s = (calls: { at: number }[]) =>
  Math.max(0, ...calls.map((c) => calls.filter((o) => o.at >= c.at && o.at < c.at + 10_000).length))

describe('the budget’s bucket', () => {
  it('keeps every 10 s window at or under 10 × budget, whoever asks, bookings and bursts included', () => {
    for (const budget of [1, 5, 20]) {
      const calls = flood(budget, TIERS)
      expect(calls.length).toBeGreaterThan(0)
      expect(mostInAny10s(calls)).toBeLessThanOrEqual(10 * budget)
    }
  })

  it('gives bursts all they ask, then near dates before far dates, when all ask more than the budget', () => {
    // Budget 5 a second; bursts ask 2 a second, near and far as fast as they can (far asks first).
    // Polls leave a tenth of the window to bookings: near gets about 45 − 20 calls in 10 s.
    const calls = flood(5, ['far', 'near', 'burst'], { burst: 500 })
    const count = (tier: Tier) => calls.filter((c) => c.tier === tier).length
    expect(count('burst')).toBeGreaterThanOrEqual(118)
    expect(count('near')).toBeGreaterThan(140)
    expect(count('far')).toBeLessThan(10)
  })

  it('lets a booking through at once while bursts and polls have emptied the bucket', () => {
    const state = emptyLeaseState()
    for (let i = 0; i < 10; i++) expect(decideLease(state, 5, { tier: 'burst', cost: 1 }, NOW)).toBe(0)
    expect(decideLease(state, 5, { tier: 'near', cost: 1 }, NOW)).toBeGreaterThan(0)
    expect(decideLease(state, 5, { tier: 'booking', cost: 1 }, NOW)).toBe(0)
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

describe('a release instant', () => {
  const T = NOW + 30_000
  const grantsAt = (state: LeaseState, tier: Tier, at: number) => {
    let n = 0
    while (n < 100 && decideLease(state, 3, { tier: tier, cost: 1 }, at) === 0) n++
    return n
  }

  it('gets the whole window at the instant: polls leave it the room from 10 s before, bursts take their share, bookings the rest', () => {
    // The default budget, 3 a second: 30 calls in any 10 s. A poller announced the release.
    const state = emptyLeaseState()
    state.drops.set('venue-day', { at: T, calls: 40 })
    const polls: number[] = []
    for (let t = NOW; t < T; t += 10) if (decideLease(state, 3, { tier: 'near', cost: 1 }, t) === 0) polls.push(t)
    expect(polls.length).toBeGreaterThan(20)
    expect(polls.filter((t) => t >= T - 10_000)).toEqual([])
    // At the instant: the bursts' finds at once, up to their two thirds, then the bookings they start.
    expect(grantsAt(state, 'burst', T)).toBe(20)
    expect(grantsAt(state, 'booking', T + 200)).toBe(10)
    // Nothing more until the window frees: a poll waits for the hold to end, a booking for the first calls to leave.
    expect(decideLease(state, 3, { tier: 'near', cost: 1 }, T + 5_000)).toBe(5_000)
    expect(decideLease(state, 3, { tier: 'booking', cost: 1 }, T + 9_000)).toBe(1_000)
    expect(decideLease(state, 3, { tier: 'booking', cost: 1 }, T + 10_000)).toBe(0)
  })

  it('without an announced release, a burst gets what the polls leave, and the window still holds', () => {
    const state = emptyLeaseState()
    const polls = flood(3, ['near', 'far'], {}, state).length
    expect(polls).toBeGreaterThan(100)
    const burst = grantsAt(state, 'burst', NOW + 60_000)
    expect(burst).toBeGreaterThan(0)
    expect(burst).toBeLessThan(10)
  })

  it('lets the bookings already started book before more start: of ten started at once after the finds, six book at once', () => {
    const state = emptyLeaseState()
    state.drops.set('venue-day', { at: T, calls: 40 })
    for (let i = 0; i < 10; i++) expect(decideLease(state, 3, { tier: 'burst', cost: 1 }, T)).toBe(0)
    const start = (i: number, at: number) => decideLease(state, 3, { tier: 'booking', cost: 1, key: `details ${i}`, step: 'start' }, at)
    const started = [...Array(10).keys()].filter((i) => start(i, T + 100) === 0)
    expect(started).toHaveLength(6)
    // Each started booking's reservation list goes; other calls with a user's token (a
    // verification) leave the room of the books still owed; every book goes, though the window is then full.
    for (const i of started) expect(decideLease(state, 3, { tier: 'booking', cost: 1, key: `list ${i}` }, T + 200)).toBe(0)
    const verify = (i: number) => decideLease(state, 3, { tier: 'booking', cost: 1, key: `verify ${i}` }, T + 250)
    expect([0, 1, 2].map(verify).map((wait) => wait === 0)).toEqual([true, true, false])
    for (const i of started) expect(decideLease(state, 3, { tier: 'booking', cost: 1, key: `book ${i}`, step: 'book' }, T + 300)).toBe(0)
    // The four left wait for the finds to leave the window; the polls leave them that room.
    expect(start(6, T + 400)).toBe(9_600)
    expect(decideLease(state, 3, { tier: 'near', cost: 1 }, T + 10_050)).toBeGreaterThan(0)
    expect([6, 7, 8, 9].map((i) => start(i, T + 10_050))).toEqual([0, 0, 0, 0])
  })
})
