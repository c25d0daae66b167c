// A grant that reaches its caller late is given back and asked for afresh (the
// platform's busiest 10 s). The window counts a call when it is granted; calls granted before a
// runtime stall left together after it, and the platform saw 57 in 10 s where the budget had
// granted 28. So a call leaves within FRESH_GRANT_MS of its grant, or asks again.
import { describe, expect, it } from 'vitest'
import { FRESH_GRANT_MS, freshLease, type Lease, type LeaseRequest, STALE_ASKS } from '../../src/budget/budget'
import { emptyLedger, leaseFrom } from '../../src/budget/ledger'
import { NOW } from './fixtures'

const BUDGET = 3
const poll = (key: string): LeaseRequest => ({ tier: 'near', cost: 1, key, intervalMs: 60_000 })
const booking = (key: string): LeaseRequest => ({ tier: 'booking', cost: 1, key })

describe('a grant given back', () => {
  it('leaves the window, so a call asked for again after a stall is counted once', () => {
    const ledger = emptyLedger()
    // Bookings fill the window's 30 calls.
    for (let i = 0; i < 30; i++) expect(leaseFrom(ledger, BUDGET, booking(`b${i}`), NOW).waitMs).toBe(0)
    const full = leaseFrom(ledger, BUDGET, booking('late'), NOW + 1500)
    expect(full.waitMs).toBeGreaterThan(0)
    // One of them reached its caller 1.5 s late: given back, its re-ask fits where it stood.
    const again = leaseFrom(ledger, BUDGET, { ...booking('b0'), unused: NOW }, NOW + 1500)
    expect(again).toMatchObject({ waitMs: 0, grantedAt: NOW + 1500, givenBack: { at: NOW, calls: 1 } })
    expect(leaseFrom(ledger, BUDGET, booking('late'), NOW + 1500).waitMs).toBeGreaterThan(0)
  })

  it('is not given back twice', () => {
    const ledger = emptyLedger()
    leaseFrom(ledger, BUDGET, booking('a'), NOW)
    expect(leaseFrom(ledger, BUDGET, { ...booking('a'), unused: NOW }, NOW + 2000).givenBack).toEqual({ at: NOW, calls: 1 })
    expect(leaseFrom(ledger, BUDGET, { ...booking('a'), unused: NOW }, NOW + 2100).givenBack).toBeNull()
  })

  it('keeps a queued poll’s turn: asked for again, it is not sent to the end of its queue', () => {
    const ledger = emptyLedger()
    // 200 near dates ask at once: a few go, the rest take places.
    const first = Array.from({ length: 200 }, (_, i) => leaseFrom(ledger, BUDGET, poll(`d${i}`), NOW))
    const served = first.findIndex((l) => l.waitMs === 0)
    expect(served).toBeGreaterThanOrEqual(0)
    const queuedWaits = first.filter((l) => l.waitMs > 0).map((l) => l.waitMs)
    expect(queuedWaits.length).toBeGreaterThan(150)
    // The served one got its grant 1.2 s late: it goes now, ahead of the 190-odd places.
    const again = leaseFrom(ledger, BUDGET, { ...poll(`d${served}`), unused: NOW }, NOW + 1200)
    expect(again.waitMs).toBe(0)
  })
})

/** A budget answering with grants made `lateMs[i]` before the caller reads the i-th one. */
function stallingBudget(lateMs: number[]) {
  let clock = NOW
  const asked: LeaseRequest[] = []
  const ask = async (request: LeaseRequest): Promise<Lease> => {
    const late = lateMs[asked.length] ?? 0
    asked.push(request)
    const grantedAt = clock
    clock += late
    return { waitMs: 0, stretch: 1, grantedAt }
  }
  return { ask, asked, clock: () => clock }
}

describe('a caller whose grant comes late', () => {
  it('uses a grant within FRESH_GRANT_MS as it is', async () => {
    const budget = stallingBudget([FRESH_GRANT_MS])
    expect(await freshLease(budget.ask, poll('a'), budget.clock)).toMatchObject({ waitMs: 0 })
    expect(budget.asked).toHaveLength(1)
  })

  it('gives a stale grant back and uses the fresh one', async () => {
    const budget = stallingBudget([FRESH_GRANT_MS + 1, 5])
    expect(await freshLease(budget.ask, poll('a'), budget.clock)).toMatchObject({ waitMs: 0, grantedAt: NOW + FRESH_GRANT_MS + 1 })
    expect(budget.asked.map((r) => r.unused)).toEqual([undefined, NOW])
  })

  it('asks later, without a grant, when every answer comes late', async () => {
    const budget = stallingBudget(Array(10).fill(3000))
    expect(await freshLease(budget.ask, poll('a'), budget.clock)).toMatchObject({ waitMs: FRESH_GRANT_MS })
    expect(budget.asked).toHaveLength(STALE_ASKS)
  })

  it('takes a wait as it is told', async () => {
    const ask = async (): Promise<Lease> => ({ waitMs: 700, stretch: 2, grantedAt: NOW - 60_000 })
    expect(await freshLease(ask, poll('a'), () => NOW)).toMatchObject({ waitMs: 700, stretch: 2 })
  })
})
