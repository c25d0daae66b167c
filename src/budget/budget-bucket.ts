// The service-wide budget's arithmetic, pure: a token bucket refilled at the
// budget's rate, with a floor per tier so that later tiers leave room for earlier ones, and the
// demand each tier puts on it. The BudgetObject (budget-object.ts) keeps one of each in memory.
import { type Allocation, allocate, type PerTier, TIERS, type Tier, zeroPerTier } from './call-priority'
import { windowLimitOf } from './call-window'

export interface Bucket {
  tokens: number
  at: number
}

/** Half a second of polls may go at once after a quiet spell: the window (call-window.ts) bounds every tier together. */
const BURST_SECONDS = 0.5

/**
 * What must stay in the bucket after a tier takes (a share of what it holds beyond one call): far dates take
 * only from a half-full bucket, near dates from a quarter, lookups from a tenth. Bookings and
 * release bursts are not smoothed: the window alone bounds them (call-window.ts), and their calls
 * are charged here, down to a window's worth of debt, so the polls after them wait until it is repaid.
 */
const TIER_FLOOR: Record<'lookup' | 'near' | 'far', number> = { lookup: 0.1, near: 0.25, far: 0.5 }

const capacityOf = (budgetPerSecond: number) => Math.max(1, budgetPerSecond * BURST_SECONDS)

/**
 * Takes `cost` calls for `tier` if the bucket allows: waitMs 0 (go) or how long until it would.
 * Bookings, bursts and a poll whose place in its queue has come (poll-turns.ts: the queue is
 * served at the bucket's rate) always go, charged.
 */
export function takeCalls(
  bucket: Bucket | null,
  budgetPerSecond: number,
  tier: Tier,
  cost: number,
  now: number,
  onTurn = false,
): { bucket: Bucket; waitMs: number } {
  const capacity = capacityOf(budgetPerSecond)
  const elapsed = bucket ? Math.max(0, now - bucket.at) / 1000 : Number.POSITIVE_INFINITY
  const tokens = Math.min(capacity, (bucket?.tokens ?? capacity) + elapsed * budgetPerSecond)
  if (tier === 'booking' || tier === 'burst' || onTurn) {
    return { bucket: { tokens: Math.max(-windowLimitOf(budgetPerSecond), tokens - cost), at: now }, waitMs: 0 }
  }
  // The floor is a share of what the bucket holds beyond one call: with a budget so small that the
  // bucket holds one call, every tier waits for a full token (the allocation's stretch still orders them).
  const floor = TIER_FLOOR[tier] * Math.max(0, capacity - 1)
  if (tokens - cost >= floor) return { bucket: { tokens: tokens - cost, at: now }, waitMs: 0 }
  const missing = floor + cost - tokens
  return { bucket: { tokens, at: now }, waitMs: Math.max(1, Math.ceil((missing / budgetPerSecond) * 1000)) }
}

/**
 * Demand: what each tier would ask at its own cadence. Polls say so with each lease (one entry per
 * venue-day, `callsPerSecond` = calls per round ÷ planned interval, forgotten after `until`);
 * bookings and lookups are counted as they come, decayed over DEMAND_WINDOW_MS.
 */
export interface Demand {
  periodic: Map<string, { tier: Tier; callsPerSecond: number; until: number }>
  counted: Record<Tier, { rate: number; at: number }>
}

const DEMAND_WINDOW_MS = 60_000

export const emptyDemand = (): Demand => ({
  periodic: new Map(),
  counted: {
    booking: { rate: 0, at: 0 },
    burst: { rate: 0, at: 0 },
    lookup: { rate: 0, at: 0 },
    near: { rate: 0, at: 0 },
    far: { rate: 0, at: 0 },
  },
})

const decayed = (c: { rate: number; at: number }, now: number) => c.rate * Math.exp(-Math.max(0, now - c.at) / DEMAND_WINDOW_MS)

/** Records a lease request in the demand (mutates `demand`, and forgets the entries that expired). */
export function noteDemand(demand: Demand, request: { tier: Tier; cost: number; key?: string; intervalMs?: number }, now: number): void {
  for (const [key, entry] of demand.periodic) if (entry.until <= now) demand.periodic.delete(key)
  if (request.key && request.intervalMs && request.intervalMs > 0) {
    // Forgotten after three of its own intervals without a word (it stopped watching).
    demand.periodic.set(request.key, {
      tier: request.tier,
      callsPerSecond: (request.cost * 1000) / request.intervalMs,
      until: now + Math.max(3 * request.intervalMs, DEMAND_WINDOW_MS),
    })
    return
  }
  const c = demand.counted[request.tier]
  demand.counted[request.tier] = { rate: decayed(c, now) + request.cost / (DEMAND_WINDOW_MS / 1000), at: now }
}

/** Calls per second each tier wants now. */
export function demandPerTier(demand: Demand, now: number): PerTier {
  const total = zeroPerTier()
  for (const entry of demand.periodic.values()) if (entry.until > now) total[entry.tier] += entry.callsPerSecond
  for (const tier of TIERS) total[tier] += decayed(demand.counted[tier], now)
  return total
}

export const allocationOf = (demand: Demand, budgetPerSecond: number, now: number): Allocation =>
  allocate(demandPerTier(demand, now), budgetPerSecond)

/** A poller holding a place in a queue is still watching: its demand is kept until a little past its wait (mutates `demand`). */
export function keepDemand(demand: Demand, key: string, until: number): void {
  const entry = demand.periodic.get(key)
  if (entry && entry.until < until) entry.until = until
}
