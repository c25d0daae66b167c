// At a release instant the budget's window is shared so that every request's first table is
// started before any request's second (docs/decisions/budget.md): a request whose first booking
// is under way waits with its second while another request's first waits for room.
import { describe, expect, it } from 'vitest'
import type { Grant } from '../../src/budget/call-window'
import { decideLease, emptyLeaseState, SECOND_TABLE_WAIT_MS } from '../../src/budget/lease-rule'
import { NOW } from './fixtures'

const BUDGET = 3 // 30 calls in any 10 s
const start = (holder: string, key: string) => ({ tier: 'booking' as const, cost: 1, key, step: 'start' as const, holder })
const others = (count: number, at: number): Grant[] => Array.from({ length: count }, () => ({ at, count: 1, kind: 'other' as const }))

describe('the window at a release instant', () => {
  it("starts another request's first table before a request's second, when one start is all that fits", () => {
    const state = emptyLeaseState()
    // Request A's first table: details, reservations and book a second ago; the release's finds fill the rest.
    state.grants.push(
      ...others(25, NOW - 9_500),
      { at: NOW - 1_000, count: 1, kind: 'booking-start', holder: 'A' },
      { at: NOW - 1_000, count: 1, kind: 'booking' },
      { at: NOW - 1_000, count: 1, kind: 'booking-book' },
    )
    // B's first table finds no room: it waits for the finds to leave the window.
    const bWaits = decideLease(state, BUDGET, start('B', 'b-details'), NOW)
    expect(bWaits).toBe(500)
    // They leave; the next finds take all but room for one start.
    state.grants.push(...others(22, NOW + 600))
    // A's second table asks first: it leaves the room to B's first.
    expect(decideLease(state, BUDGET, start('A', 'a-second'), NOW + 600)).toBe(SECOND_TABLE_WAIT_MS)
    expect(decideLease(state, BUDGET, start('B', 'b-details'), NOW + 700)).toBe(0)
    // B's booking now goes on before A's second starts (its reservations and book are owed).
    expect(decideLease(state, BUDGET, start('A', 'a-second'), NOW + 1_100)).toBeGreaterThan(0)
  })

  it("leaves a verification's room to a waiting first table: the booking it verifies is made already", () => {
    const state = emptyLeaseState()
    state.grants.push(...others(28, NOW - 9_500))
    // A first table waits for room: its details and two later calls do not fit in the window's 30.
    expect(decideLease(state, BUDGET, start('B', 'b-details'), NOW)).toBeGreaterThan(0)
    const verify = { tier: 'booking' as const, cost: 1, key: 'a-verify', step: 'verify' as const }
    state.grants.splice(0, 1) // one call leaves: room for the booking's three, not for a verification too
    expect(decideLease(state, BUDGET, verify, NOW + 100)).toBeGreaterThan(0)
    expect(decideLease(state, BUDGET, start('B', 'b-details'), NOW + 200)).toBe(0)
  })

  it("lets a request's second table start at once when there is room for every first table too", () => {
    const state = emptyLeaseState()
    state.grants.push({ at: NOW - 1_000, count: 1, kind: 'booking-start', holder: 'A' }, ...others(5, NOW - 500))
    expect(decideLease(state, BUDGET, start('A', 'a-second'), NOW)).toBe(0)
  })
})
