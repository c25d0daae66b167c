// Who gets the service's platform calls first when there are not enough for everyone.
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

/** The longest stretch: a tier asking for far more than its share still polls now and then (at most 64 × its interval). */
export const MAX_STRETCH = 64

/**
 * The share of the budget near and far polls keep whatever the earlier tiers want. Bookings and
 * lookups are counted as they come (a minute's decay, budget-bucket.ts), so a spell of them — a
 * dozen bookings, a user searching — could otherwise leave the polls nothing: every venue-day
 * would then sleep MAX_STRETCH intervals, an hour at the default cadence, and miss the tables
 * that came meanwhile (the contest bench caught none). The token bucket still lets the earlier
 * tiers' calls go first, call by call; the floor only bounds how far a cadence is stretched.
 */
const POLL_FLOOR_SHARE: Record<Tier, number> = { booking: 0, burst: 0, lookup: 0, near: 0.25, far: 0.05 }

/** The share of the budget a tier keeps whatever the earlier ones want, up to what it wants itself. */
const floorOf = (tier: Tier, demand: PerTier, budget: number) => Math.min(Math.max(0, demand[tier]), POLL_FLOOR_SHARE[tier] * budget)

const floorsBehind = (tier: Tier, demand: PerTier, budget: number) =>
  TIERS.slice(TIERS.indexOf(tier) + 1).reduce((sum, t) => sum + floorOf(t, demand, budget), 0)

/**
 * Hands the budget out in tier order. A booking is never stretched (booking safety and a user
 * waiting come first; bookings are rare, so the budget absorbs them); each later tier gets what is
 * left after the floors of the tiers behind it, and at least its own floor; its cadence stretches
 * by demand ÷ granted.
 */
export function allocate(demand: PerTier, budgetPerSecond: number): Allocation {
  const budget = Math.max(0, budgetPerSecond)
  const want = (tier: Tier) => Math.max(0, demand[tier])
  let left = budget
  const granted = zeroPerTier()
  const stretch = zeroPerTier()
  for (const tier of TIERS) {
    const behind = floorsBehind(tier, demand, budget)
    const got = tier === 'booking' ? want(tier) : Math.min(want(tier), Math.max(floorOf(tier, demand, budget), left - behind))
    left = Math.max(0, left - got)
    granted[tier] = got
    stretch[tier] = want(tier) === 0 || got >= want(tier) ? 1 : got === 0 ? MAX_STRETCH : Math.min(MAX_STRETCH, want(tier) / got)
  }
  const shortfall = TIERS.reduce((sum, t) => sum + Math.max(0, demand[t] - granted[t]), 0)
  return { budgetPerSecond, demand, granted, stretch, shortfall }
}

/**
 * The calls per second a tier can get, whatever it wants: the budget less what the earlier tiers
 * are granted and the floors of the later ones, and at least its own floor share. A tier's
 * queue of refused polls is served at this rate (ledger.ts, poll-turns.ts).
 */
export function shareOf(a: Allocation, tier: Tier): number {
  const earlier = TIERS.slice(0, TIERS.indexOf(tier)).reduce((sum, t) => sum + a.granted[t], 0)
  const budget = a.budgetPerSecond
  return Math.max(POLL_FLOOR_SHARE[tier] * budget, budget - earlier - floorsBehind(tier, a.demand, budget))
}

/** The interval a poll of `tier` keeps under the allocation. */
export const stretchedInterval = (intervalMs: number, tier: Tier, allocation: Pick<Allocation, 'stretch'>) =>
  Math.round(intervalMs * allocation.stretch[tier])
