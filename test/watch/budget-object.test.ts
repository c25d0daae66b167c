// The one budget in workerd: many callers at once — as many availability
// objects would — get no more than the budget allows in any second, bookings go first, and the
// figures show demand, budget and shortfall.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { budgetFrom, budgetObject, DEFAULT_CALLS_PER_SECOND, FRESH_GRANT_MS } from '../../src/budget/budget'
import type { Tier } from '../../src/budget/call-priority'
import { POLL_RATE_SHARE } from '../../src/budget/call-window'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('the budget object', () => {
  it('defaults to 3 calls a second, and takes the operator’s setting', () => {
    expect(budgetFrom({})).toBe(DEFAULT_CALLS_PER_SECOND)
    expect(DEFAULT_CALLS_PER_SECOND).toBe(3)
    expect(budgetFrom({ PLATFORM_CALLS_PER_SECOND: '5' })).toBe(5)
    expect(budgetFrom({ PLATFORM_CALLS_PER_SECOND: 'fast' })).toBe(DEFAULT_CALLS_PER_SECOND)
  })

  it('holds the budget for 60 callers asking at once, and reports the shortfall', async () => {
    const budget = budgetObject(env)
    await budget.setBudget(DEFAULT_CALLS_PER_SECOND) // the test pool runs with a generous budget
    const granted: { at: number; tier: Tier }[] = []
    const until = Date.now() + 3_000
    // 60 venue-days polling every 10 s want 6 calls a second: twice the default budget of 3.
    const caller = async (i: number) => {
      const tier: Tier = i % 2 === 0 ? 'near' : 'far'
      while (Date.now() < until) {
        const lease = await budget.lease({ tier, cost: 1, key: `vd${i}`, intervalMs: 10_000 })
        if (lease.waitMs === 0) granted.push({ at: Date.now(), tier })
        // A refused poller is told to come back within the backlog (up to 60 ÷ 3 = 20 s): the test ends at `until`.
        await sleep(Math.min(Math.max(lease.waitMs, 20), Math.max(0, until - Date.now())))
      }
    }
    await Promise.all(Array.from({ length: 60 }, (_, i) => caller(i)))
    const elapsedSeconds = 3
    expect(DEFAULT_CALLS_PER_SECOND).toBe(3)
    // The bucket's half-second burst, then the rate.
    expect(granted.length).toBeLessThanOrEqual(Math.ceil(DEFAULT_CALLS_PER_SECOND * (elapsedSeconds + 0.5)) + 1)
    expect(granted.length).toBeGreaterThanOrEqual(DEFAULT_CALLS_PER_SECOND * (elapsedSeconds - 1))
    for (const g of granted) {
      const inSecond = granted.filter((o) => o.at >= g.at && o.at < g.at + 1000).length
      expect(inSecond).toBeLessThanOrEqual(Math.ceil(DEFAULT_CALLS_PER_SECOND * 1.5) + 1)
    }
    // Near dates got more than far dates.
    expect(granted.filter((g) => g.tier === 'near').length).toBeGreaterThan(granted.filter((g) => g.tier === 'far').length)
    const figures = await budget.figures()
    expect(figures.callsPerSecond).toBe(3)
    expect(figures.demand.near + figures.demand.far).toBeCloseTo(6)
    expect(figures.shortfall).toBeCloseTo(3)
    expect(figures.stretch.far).toBeGreaterThan(1)
    expect(figures.maxCallsInAnySecond).toBeLessThanOrEqual(Math.ceil(DEFAULT_CALLS_PER_SECOND * 1.5) + 1)
  })

  it('lets a booking through at once while polls keep the bucket empty', async () => {
    const budget = budgetObject(env)
    for (let i = 0; i < 10; i++) await budget.lease({ tier: 'burst', cost: 1 })
    expect((await budget.lease({ tier: 'near', cost: 1, key: 'x', intervalMs: 1000 })).waitMs).toBeGreaterThan(0)
    expect((await budget.lease({ tier: 'booking', cost: 1 })).waitMs).toBe(0)
  })

  it('tells the pollers it refuses their turns, one after another at the polls’ rate, so they do not all come back at once', async () => {
    const budget = budgetObject(env)
    await budget.setBudget(DEFAULT_CALLS_PER_SECOND)
    // 300 venue-days due at the same moment (a burst of new requests): the polls' 2.7 calls a second serve them in 111 s.
    const leases = await Promise.all(
      Array.from({ length: 300 }, (_, i) => budget.lease({ tier: 'near', cost: 1, key: `herd${i}`, intervalMs: 60_000 })),
    )
    const waits = leases.map((l) => l.waitMs).filter((w) => w > 0)
    expect(waits.length).toBeGreaterThan(290)
    // Each is told its own turn, about 370 ms after the one before (a bucket's wait alone, ~333 ms,
    // would bring all of them back within the first second, and again, and again).
    const sorted = [...waits].sort((a, b) => a - b)
    expect(sorted.filter((w) => w <= 1000).length).toBeLessThanOrEqual(4)
    const serveAllMs = (300 / (DEFAULT_CALLS_PER_SECOND * POLL_RATE_SHARE)) * 1000
    expect(Math.max(...waits)).toBeGreaterThan(0.9 * serveAllMs)
    // A little more: the earlier tests' far dates and bursts still count in the demand, and keep their share.
    expect(Math.max(...waits)).toBeLessThanOrEqual(1.25 * serveAllMs)
    for (let i = 1; i < sorted.length; i++) expect((sorted[i] ?? 0) - (sorted[i - 1] ?? 0)).toBeGreaterThan(300)
    // Asking again before its turn changes nothing: it is told the same turn.
    const again = await budget.lease({ tier: 'near', cost: 1, key: 'herd299', intervalMs: 60_000 })
    expect(Math.abs(again.waitMs - (leases[299]?.waitMs ?? 0))).toBeLessThan(1000)
    // A booking is never put in that queue.
    expect((await budget.lease({ tier: 'booking', cost: 1 })).waitMs).toBe(0)
  })

  it('gives a release instant the window’s room: polls wait from before it, its finds and bookings go at once, 30 calls in 10 s at most', async () => {
    // An object of its own: the window of the other tests' calls stays out of this one.
    const budget = env.BUDGET.get(env.BUDGET.idFromName('release-instant-test'))
    await budget.setBudget(DEFAULT_CALLS_PER_SECOND)
    const at = Date.now() + 1_000
    await budget.expectRelease({ key: 'venue-day', at, calls: 40 })
    expect((await budget.figures()).releases).toEqual([{ at, calls: 30 }])
    // A poll now waits until the release's hold ends, 10 s after the instant.
    const poll = await budget.lease({ tier: 'near', cost: 1, key: 'another venue-day', intervalMs: 60_000 })
    expect(poll.waitMs).toBeGreaterThan(9_000)
    await sleep(at - Date.now())
    const finds = await Promise.all(Array.from({ length: 25 }, () => budget.lease({ tier: 'burst', cost: 1 })))
    expect(finds.filter((l) => l.waitMs === 0)).toHaveLength(20)
    const bookings = await Promise.all(Array.from({ length: 15 }, () => budget.lease({ tier: 'booking', cost: 1 })))
    expect(bookings.filter((l) => l.waitMs === 0)).toHaveLength(10)
    const figures = await budget.figures()
    expect(figures.calls).toBe(30)
    expect(figures.maxCallsInAny10Seconds).toBe(30)
  })

  it('takes back a grant its caller got too late to use: the window and the figures count the call once, when it leaves', async () => {
    const budget = env.BUDGET.get(env.BUDGET.idFromName('late-grant-test'))
    await budget.setBudget(DEFAULT_CALLS_PER_SECOND)
    const bookings = await Promise.all(Array.from({ length: 30 }, (_, i) => budget.lease({ tier: 'booking', cost: 1, key: `b${i}` })))
    expect(bookings.every((l) => l.waitMs === 0)).toBe(true)
    expect((await budget.lease({ tier: 'booking', cost: 1, key: 'one more' })).waitMs).toBeGreaterThan(0)
    // One of the 30 reached its caller after a stall: given back, it goes again in the room it held.
    await sleep(FRESH_GRANT_MS + 100)
    const again = await budget.lease({ tier: 'booking', cost: 1, key: 'b0', unused: bookings[0]?.grantedAt })
    expect(again.waitMs).toBe(0)
    const figures = await budget.figures()
    expect(figures.calls).toBe(30)
    expect(figures.lateGrants).toBe(1)
  })

  it('ignores a release announced for the past or beyond a day', async () => {
    const budget = env.BUDGET.get(env.BUDGET.idFromName('release-junk-test'))
    await budget.expectRelease({ key: 'past', at: Date.now() - 1_000, calls: 4 })
    await budget.expectRelease({ key: 'far', at: Date.now() + 2 * 86_400_000, calls: 4 })
    await budget.expectRelease({ key: 'none', at: Date.now() + 60_000, calls: 0 })
    expect((await budget.figures()).releases).toEqual([])
  })
})
