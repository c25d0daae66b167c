// A refused poller is told its turn: the turns of a tier are spaced at the rate the
// tier can get, a poller on its turn is served, and so a venue-day asks about twice for each
// call the budget grants, however far demand exceeds the budget. Near dates keep ahead of far ones.
import { describe, expect, it } from 'vitest'
import { allocate, MAX_STRETCH, shareOf, type Tier, zeroPerTier } from '../../src/budget/call-priority'
import { emptyLedger, leaseFrom } from '../../src/budget/ledger'
import { emptyTurns, nextTurn, REASK_MS, SLOTS_AT_ONCE, turnOf } from '../../src/budget/poll-turns'
import { NOW } from './fixtures'

const ask = (key: string, over: Partial<Parameters<typeof nextTurn>[1]> = {}) => ({
  key,
  tier: 'far' as Tier,
  ruleWaitMs: 300,
  ratePerSecond: 2,
  ...over,
})
const at2 = { near: 2, far: 2 }

describe('a refused poller’s place', () => {
  it('is the next of its tier, and it is told when that comes at the tier’s rate', () => {
    const turns = emptyTurns()
    const waits = ['a', 'b', 'c'].map((key) => nextTurn(turns, ask(key), NOW))
    // 2 calls a second: half a second apart.
    expect(waits).toEqual([500, 1000, 1500])
    expect(turnOf(turns, 'b', 'far', at2, NOW)).toEqual({ kind: 'ahead', waitMs: 1000 })
    expect(turnOf(turns, 'b', 'far', at2, NOW + 1000)).toEqual({ kind: 'due' })
  })

  it('is served when it comes, and given up', () => {
    const turns = emptyTurns()
    nextTurn(turns, ask('a'), NOW)
    expect(turnOf(turns, 'a', 'far', at2, NOW + 500)).toEqual({ kind: 'due' })
    expect(nextTurn(turns, ask('a', { ruleWaitMs: 0 }), NOW + 500)).toBe(0)
    expect(turnOf(turns, 'a', 'far', at2, NOW + 500)).toEqual({ kind: 'none' })
  })

  it('goes to the end of its queue when refused on its turn (a booking took the window’s room meanwhile)', () => {
    const turns = emptyTurns()
    for (const key of ['a', 'b', 'c']) nextTurn(turns, ask(key), NOW)
    expect(turnOf(turns, 'a', 'far', at2, NOW + 500)).toEqual({ kind: 'due' })
    expect(nextTurn(turns, ask('a', { ruleWaitMs: 120 }), NOW + 500)).toBe(1500)
    expect(nextTurn(turns, ask('d'), NOW + 500)).toBe(2000)
  })

  it('lets pollers whose places came long ago go a slot apart at the queue’s rate, a few at once, not all together', () => {
    const turns = emptyTurns()
    for (let i = 0; i < 10; i++) nextTurn(turns, ask(`d${i}`), NOW)
    // A minute later, all ten places have come; the ten pollers come together (after a stall).
    const at = NOW + 60_000
    const states = Array.from({ length: 10 }, (_, i) => turnOf(turns, `d${i}`, 'far', at2, at))
    expect(states.filter((s) => s.kind === 'due')).toHaveLength(SLOTS_AT_ONCE)
    expect(states.flatMap((s) => (s.kind === 'ahead' ? [s.waitMs] : []))).toEqual([500, 1000, 1500, 2000, 2500, 3000, 3500])
    // Each keeps its slot: back at it, it goes.
    expect(turnOf(turns, 'd5', 'far', at2, at + 1500)).toEqual({ kind: 'due' })
    expect(turnOf(turns, 'd6', 'far', at2, at + 1500)).toEqual({ kind: 'ahead', waitMs: 500 })
  })

  it('keeps each tier’s queue apart: a near date does not wait behind far ones', () => {
    const turns = emptyTurns()
    for (let i = 0; i < 100; i++) nextTurn(turns, ask(`far${i}`, { ratePerSecond: 0.2 }), NOW)
    expect(nextTurn(turns, ask('near', { tier: 'near' }), NOW)).toBe(500)
  })

  it('is told again at the rate of the moment when it asks before its place comes: far dates move up when near dates want less', () => {
    const turns = emptyTurns()
    for (let i = 0; i < 100; i++) nextTurn(turns, ask(`far${i}`, { ratePerSecond: 0.1 }), NOW)
    // Place 100 at 0.1 a second is 1,000 s away: it asks again after REASK_MS at most.
    expect(turnOf(turns, 'far99', 'far', { far: 0.1 }, NOW)).toEqual({ kind: 'ahead', waitMs: REASK_MS })
    // A minute later far dates get a call a second: the queue has reached place 60, 40 s to go.
    expect(turnOf(turns, 'far99', 'far', { far: 1 }, NOW + 60_000)).toEqual({ kind: 'ahead', waitMs: 40_000 })
  })

  it('is shared by callers with the same key (the venue’s calendar, near and far dates alike): they wait for the same place', () => {
    const turns = emptyTurns()
    nextTurn(turns, ask('x'), NOW)
    nextTurn(turns, ask('calendar:7:2'), NOW)
    expect(turnOf(turns, 'calendar:7:2', 'far', at2, NOW + 100)).toEqual({ kind: 'ahead', waitMs: 900 })
  })

  it('does not hold back a near date asking for a key a far date queued for: it takes a near place, and the far dates wait for that', () => {
    const turns = emptyTurns()
    for (let i = 0; i < 100; i++) nextTurn(turns, ask(`far${i}`, { ratePerSecond: 0.1 }), NOW)
    nextTurn(turns, ask('calendar:7:2', { ratePerSecond: 0.1 }), NOW)
    const rates = { near: 2, far: 0.1 }
    expect(turnOf(turns, 'calendar:7:2', 'near', rates, NOW + 100)).toEqual({ kind: 'none' })
    expect(nextTurn(turns, ask('calendar:7:2', { tier: 'near' }), NOW + 100)).toBe(500)
    expect(turnOf(turns, 'calendar:7:2', 'far', rates, NOW + 200)).toEqual({ kind: 'ahead', waitMs: 400 })
  })

  it('is one turn however often near and far dates ask for the same key meanwhile: the queue does not grow', () => {
    const ledger = emptyLedger()
    for (let i = 0; i < 20; i++) leaseFrom(ledger, 3, { tier: 'near', cost: 1, key: `vd${i}`, intervalMs: 60_000 }, NOW)
    const first = leaseFrom(ledger, 3, { tier: 'near', cost: 1, key: 'calendar:7:2', intervalMs: 60_000 }, NOW).waitMs
    for (let i = 0; i < 100; i++) {
      const tier: Tier = i % 2 === 0 ? 'far' : 'near'
      const again = leaseFrom(ledger, 3, { tier, cost: 1, key: 'calendar:7:2', intervalMs: 60_000 }, NOW + i)
      // The same place, told again at the rate of the moment (each ask moves the demand a little).
      expect(Math.abs(again.waitMs - (first - i))).toBeLessThan(1000)
    }
    // The next near date is served right after the calendar's turn.
    const next = leaseFrom(ledger, 3, { tier: 'near', cost: 1, key: 'vd-next', intervalMs: 60_000 }, NOW + 100).waitMs
    expect(next + 100 - first).toBeLessThan(1000)
  })
})

describe('a tier’s rate', () => {
  it('is the budget less the earlier tiers’ grants and the later tiers’ floors, whatever the tier wants', () => {
    const a = allocate({ ...zeroPerTier(), booking: 0.5, near: 10, far: 30 }, 3)
    // Far keeps its floor (5 % of 3), near the rest after bookings.
    expect(shareOf(a, 'far')).toBeCloseTo(0.15)
    expect(shareOf(a, 'near')).toBeCloseTo(3 - 0.5 - 0.15)
    // A near date asking alone gets the budget, not only its own small demand.
    expect(shareOf(allocate({ ...zeroPerTier(), near: 0.01 }, 3), 'near')).toBe(3)
  })
})

/**
 * Venue-days polling every `intervalMs` through the real lease (ledger.ts) for `minutes`: each
 * asks when due and, refused, again when told; served, it comes back an interval × the stretch later.
 */
function simulate(venueDays: { key: string; tier: Tier }[], budget: number, intervalMs: number, minutes: number, signInsFirstMinute = 0) {
  const ledger = emptyLedger()
  const due = new Map(venueDays.map((v, i) => [v.key, NOW + ((i * 7919) % intervalMs)]))
  const served: { at: number; tier: Tier }[] = []
  let asks = 0
  const signInEveryMs = signInsFirstMinute > 0 ? Math.floor(60_000 / signInsFirstMinute) : 0
  for (let t = NOW; t < NOW + minutes * 60_000; t += 10) {
    // Users connecting their accounts: calls with a user's token, first in line, never queued.
    if (signInEveryMs > 0 && t < NOW + 60_000 && (t - NOW) % signInEveryMs < 10) leaseFrom(ledger, budget, { tier: 'booking', cost: 1 }, t)
    for (const v of venueDays) {
      if ((due.get(v.key) ?? t) > t) continue
      asks++
      const lease = leaseFrom(ledger, budget, { tier: v.tier, cost: 1, key: v.key, intervalMs }, t)
      if (lease.waitMs > 0) due.set(v.key, t + lease.waitMs)
      else {
        served.push({ at: t, tier: v.tier })
        due.set(v.key, t + intervalMs * Math.min(lease.stretch, MAX_STRETCH))
      }
    }
  }
  return { asks, served }
}

describe('many more venue-days than the budget serves', () => {
  // 600 venue-days every 60 s want 10 calls a second: over three times the default budget of 3.
  const venueDays = Array.from({ length: 600 }, (_, i) => ({ key: `vd${i}`, tier: (i % 4 === 0 ? 'near' : 'far') as Tier }))
  const { asks, served } = simulate(venueDays, 3, 60_000, 15)

  it('ask about twice for each call granted, not again and again (and far dates every REASK_MS while their place is further)', () => {
    // The polls' share of the budget is 2.7 calls a second (call-window.ts POLL_RATE_SHARE).
    expect(served.length).toBeGreaterThan(0.9 * 2.7 * 15 * 60)
    // About 2.4 when pollers whose places had come all went at once; their slots (SLOTS_AT_ONCE) add about 0.1.
    expect(asks / served.length).toBeLessThan(2.6)
  })

  it('never get more than the window allows', () => {
    for (const s of served) expect(served.filter((o) => o.at >= s.at && o.at < s.at + 10_000).length).toBeLessThanOrEqual(30)
  })

  it('serve near dates at their cadence first; far dates stretch', () => {
    const perVenueDay = (tier: Tier) => served.filter((s) => s.tier === tier).length / venueDays.filter((v) => v.tier === tier).length
    // 150 near dates every 60 s want 2.5 calls a second: within the budget, so about 15 checks each.
    expect(perVenueDay('near')).toBeGreaterThan(12)
    expect(perVenueDay('far')).toBeLessThan(perVenueDay('near') / 4)
  })
})

describe('after a rush of sign-ins', () => {
  it('the polls get the whole of their share again as soon as it is over: turns told during the rush are not spaced for it', () => {
    // 600 sign-ins in the first minute (the bench signs its users up at once): bookings come
    // first, and while they last the polls get little. The turns told then must not keep the
    // queue at that pace once they are over.
    const venueDays = Array.from({ length: 600 }, (_, i) => ({ key: `vd${i}`, tier: (i % 4 === 0 ? 'near' : 'far') as Tier }))
    const { served } = simulate(venueDays, 3, 60_000, 15, 600)
    const after = served.filter((s) => s.at >= NOW + 5 * 60_000)
    expect(after.length).toBeGreaterThan(0.9 * 2.7 * 10 * 60)
  })
})

describe('a poll served while its tier’s queue is long', () => {
  it('comes back after its stretched interval, but within REASK_MS, not after MAX_STRETCH intervals', () => {
    const ledger = emptyLedger()
    const ask = (key: string, tier: Tier, intervalMs: number, at: number) => leaseFrom(ledger, 3, { tier, cost: 1, key, intervalMs }, at)
    // Near dates want 10 calls a second, far dates 1.7 (each every 2 minutes): far dates get their floor.
    for (let i = 0; i < 600; i++) ask(`near${i}`, 'near', 60_000, NOW)
    const far = Array.from({ length: 200 }, (_, i) => ask(`far${i}`, 'far', 120_000, NOW))
    const firstFar = far.findIndex((l) => l.waitMs > 0)
    const at = NOW + (far[firstFar]?.waitMs ?? 0)
    const served = ask(`far${firstFar}`, 'far', 120_000, at)
    expect(served.waitMs).toBe(0)
    // Far dates want 11 times what they get: the demand's stretch alone would send it away for 22 minutes.
    expect(served.stretch * 120_000).toBeLessThanOrEqual(REASK_MS)
    expect(served.stretch).toBeGreaterThan(1)
  })
})
