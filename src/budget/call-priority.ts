// Who gets the service's platform calls first when there are not enough for everyone (issue 23).
// Every call from the cloud falls in one tier; the budget (calls per second, one for the whole
// service) is handed out in this order, and when demand exceeds it the later tiers' cadences
// stretch first. Pure.

/**
 * In priority order: a booking in progress (details, book, the account check that verifies it);
 * release bursts (the seconds around a release instant, when tables appear and go); a user
 * waiting on a page (restaurant search, venue lookups); dates within NEAR_DAYS; far dates.
 */
export const TIERS = ['booking', 'burst', 'lookup', 'near', 'far'] as const
export type Tier = (typeof TIERS)[number]

/** Dates up to this many days ahead are near: tables there come and go (cancellations) and matter soonest. */
export const NEAR_DAYS = 14

const DAY_MS = 86_400_000

/** The tier of an availability poll: bursts first, then by how far the dinner is. */
export function tierOfPoll(bursting: boolean, dinnerAt: number, now: number): Tier {
  if (bursting) return 'burst'
  return dinnerAt - now <= NEAR_DAYS * DAY_MS ? 'near' : 'far'
}

export type PerTier = Record<Tier, number>

export const zeroPerTier = (): PerTier => ({ booking: 0, burst: 0, lookup: 0, near: 0, far: 0 })

export interface Allocation {
  budgetPerSecond: number
  /** Calls per second each tier would make at its own cadence. */
  demand: PerTier
  /** Calls per second each tier gets. */
  granted: PerTier
  /** How much longer each tier's intervals get (1: as planned). */
  stretch: PerTier
  /** Calls per second wanted but not granted (0 when the budget covers the demand). */
  shortfall: number
}

/** The longest stretch: a tier with no share left still polls now and then (at most 64 × its interval). */
export const MAX_STRETCH = 64

/**
 * Hands the budget out in tier order. A booking is never stretched (booking safety and a user
 * waiting come first; bookings are rare, so the budget absorbs them); each later tier gets what is
 * left, and its cadence stretches by demand ÷ granted.
 */
export function allocate(demand: PerTier, budgetPerSecond: number): Allocation {
  let left = Math.max(0, budgetPerSecond)
  const granted = zeroPerTier()
  const stretch = zeroPerTier()
  for (const tier of TIERS) {
    const want = Math.max(0, demand[tier])
    const got = tier === 'booking' ? want : Math.min(want, left)
    left = Math.max(0, left - got)
    granted[tier] = got
    stretch[tier] = want === 0 || got >= want ? 1 : got === 0 ? MAX_STRETCH : Math.min(MAX_STRETCH, want / got)
  }
  const shortfall = TIERS.reduce((sum, t) => sum + Math.max(0, demand[t] - granted[t]), 0)
  return { budgetPerSecond, demand, granted, stretch, shortfall }
}

/** The interval a poll of `tier` keeps under the allocation. */
export const stretchedInterval = (intervalMs: number, tier: Tier, allocation: Pick<Allocation, 'stretch'>) =>
  Math.round(intervalMs * allocation.stretch[tier])
