// The scheduling rule of the one budget: bookings and release bursts first, then near dates, then far
// dates; when demand exceeds the budget, cadences stretch in reverse order (far first).
import { describe, expect, it } from 'vitest'
import { allocate, MAX_STRETCH, NEAR_DAYS, stretchedInterval, tierOfPoll, zeroPerTier } from '../../src/budget/call-priority'
import { NOW } from './fixtures'

const DAY_MS = 86_400_000
const demand = (over: Partial<ReturnType<typeof zeroPerTier>>) => ({ ...zeroPerTier(), ...over })

describe('the tier of a poll', () => {
  it('is burst in a release burst, else near up to NEAR_DAYS ahead, else far', () => {
    expect(tierOfPoll(true, NOW + 60 * DAY_MS, NOW)).toBe('burst')
    expect(tierOfPoll(false, NOW + NEAR_DAYS * DAY_MS, NOW)).toBe('near')
    expect(tierOfPoll(false, NOW + NEAR_DAYS * DAY_MS + 1, NOW)).toBe('far')
  })
})

describe('handing out the budget', () => {
  it('stretches nothing when the budget covers the demand', () => {
    const a = allocate(demand({ booking: 0.1, burst: 1, near: 2, far: 1 }), 5)
    expect(a.stretch).toEqual({ booking: 1, burst: 1, lookup: 1, near: 1, far: 1 })
    expect(a.shortfall).toBe(0)
  })

  it('stretches far dates first, then near dates; bursts keep their cadence', () => {
    // 5 a second: bursts 1, near 3, far 2 → far gets 1 (stretch 2).
    const a = allocate(demand({ burst: 1, near: 3, far: 2 }), 5)
    expect(a.stretch.burst).toBe(1)
    expect(a.stretch.near).toBe(1)
    expect(a.stretch.far).toBe(2)
    expect(a.shortfall).toBeCloseTo(1)
    // 3 a second: far keeps only its floor (5 %: 0.15), near gets the rest after bursts (1.85 of 3).
    const b = allocate(demand({ burst: 1, near: 3, far: 2 }), 3)
    expect(b.granted.far).toBeCloseTo(0.15)
    expect(b.stretch.far).toBeCloseTo(2 / 0.15)
    expect(b.stretch.near).toBeCloseTo(3 / 1.85)
  })

  it('leaves near and far polls their floor whatever bookings and lookups want, so no venue-day goes quiet for an hour', () => {
    // A spell of bookings and searches asking more than the whole budget.
    const a = allocate(demand({ booking: 3, lookup: 5, near: 0.5, far: 0.1 }), 3)
    expect(a.stretch.near).toBe(1) // 0.5 is within near's floor of 0.75
    expect(a.stretch.far).toBe(1) // 0.1 is within far's floor of 0.15
    expect(a.stretch.lookup).toBe(MAX_STRETCH) // nothing left for lookups: they wait in the bucket instead
    // Near asking more than its floor is stretched to it, never to MAX_STRETCH.
    const b = allocate(demand({ booking: 3, near: 1.5 }), 3)
    expect(b.granted.near).toBeCloseTo(0.75)
    expect(b.stretch.near).toBeCloseTo(2)
  })

  it('stretches a tier asking far beyond its share at most MAX_STRETCH times', () => {
    const a = allocate(demand({ near: 3, far: 100 }), 3)
    expect(a.stretch.far).toBe(MAX_STRETCH)
  })

  it('never stretches a booking, even past the budget; the others share what is left', () => {
    const a = allocate(demand({ booking: 6, burst: 1 }), 5)
    expect(a.stretch.booking).toBe(1)
    expect(a.granted.booking).toBe(6)
    expect(a.stretch.burst).toBe(MAX_STRETCH)
  })

  it('serves lookups (a user waiting on a page) before near and far polls', () => {
    const a = allocate(demand({ lookup: 2, near: 2 }), 3)
    expect(a.stretch.lookup).toBe(1)
    expect(a.stretch.near).toBe(2)
  })

  it('stretches an interval by its tier’s factor', () => {
    const a = allocate(demand({ near: 1, far: 4 }), 2)
    expect(stretchedInterval(60_000, 'near', a)).toBe(60_000)
    expect(stretchedInterval(60_000, 'far', a)).toBe(240_000)
  })
})
