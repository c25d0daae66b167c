// What the one budget remembers and a lease decided against it, pure: the window's
// rule and the bucket (lease-rule.ts), the demand each tier puts on it (budget-bucket.ts), and
// the queues of refused pollers (poll-turns.ts). The BudgetObject keeps one Ledger in memory.
import type { Lease, LeaseRequest } from './budget'
import { allocationOf, type Demand, demandPerTier, emptyDemand, keepDemand, noteDemand } from './budget-bucket'
import { allocate, shareOf, TIERS, type Tier, zeroPerTier } from './call-priority'
import { giveBack, POLL_RATE_SHARE } from './call-window'
import { decideLease, emptyLeaseState, grantKindOf, type LeaseState } from './lease-rule'
import { emptyTurns, nextTurn, REASK_MS, type Turns, turnOf } from './poll-turns'

export interface Ledger {
  state: LeaseState
  demand: Demand
  turns: Turns
}

export const emptyLedger = (): Ledger => ({ state: emptyLeaseState(), demand: emptyDemand(), turns: emptyTurns() })

/** Polls are queued when refused; bookings, bursts and lookups wait only for the window's room or the bucket. */
type QueuedTier = 'near' | 'far'
const queued = (tier: Tier): tier is QueuedTier => tier === 'near' || tier === 'far'

/** A poller's interval when it gives none. */
const DEFAULT_INTERVAL_MS = 60_000

/**
 * The rate each queue is served at: what its tier could get of the polls' share of the budget
 * (the bucket's own rate; call-priority.ts shareOf: near dates all but far dates' floor, far
 * dates what near dates leave). Bookings, bursts and lookups are left out: they come and go
 * within seconds, and a poller sleeps on the wait it is told. Told waits spaced for a rush of
 * sign-ins kept its pace for minutes after it (the scale bench used a quarter of the budget).
 * The two rates are not scaled to fit together: a queue that is empty serves nobody, and when
 * both are served faster than the window allows, it refuses the poller on its turn, who queues again.
 */
function queueRates(demand: Demand, budgetPerSecond: number, now: number): Record<QueuedTier, number> {
  const { near, far } = demandPerTier(demand, now)
  const a = allocate({ ...zeroPerTier(), near, far }, budgetPerSecond * POLL_RATE_SHARE)
  return { near: shareOf(a, 'near'), far: shareOf(a, 'far') }
}

/**
 * Decides one lease (mutates `ledger`); `granted` says how many calls of which tier go now (0 when
 * told to wait), and `givenBack` how many of an unused earlier grant left the window.
 */
export function leaseFrom(
  ledger: Ledger,
  budgetPerSecond: number,
  request: LeaseRequest,
  now: number,
): Lease & { granted: { tier: Tier; calls: number }; givenBack: { at: number; calls: number } | null } {
  const tier = TIERS.includes(request.tier) ? request.tier : 'far'
  const cost = Math.max(0, Math.min(50, Math.floor(request.cost)))
  const asked = { ...request, tier, cost }
  // A grant that reached its caller too late never left: out of the window, and the calls go
  // again as on their turn (the bucket was charged for them, and the queue served them).
  const { unused } = request
  const returned = unused === undefined ? 0 : giveBack(ledger.state.grants, unused, grantKindOf(asked), cost)
  const decided = { grantedAt: now, givenBack: unused !== undefined && returned > 0 ? { at: unused, calls: returned } : null }
  // Demand is noted whether or not the calls go now: it is what the tier would ask at its
  // cadence. A poller asking again is replaced by its key, not added; a waiting lookup's asks
  // are each counted, which overstates its demand a little (later tiers stretch sooner: the safe side).
  if (cost > 0) noteDemand(ledger.demand, asked, now)
  const stretch = allocationOf(ledger.demand, budgetPerSecond, now).stretch[tier]
  const queue = request.key && queued(tier) ? { key: request.key, tier, rates: queueRates(ledger.demand, budgetPerSecond, now) } : null
  const standing = queue ? turnOf(ledger.turns, queue.key, tier, queue.rates, now) : ({ kind: 'none' } as const)
  // Still ahead of its place (asked again early, or another caller with the same key): it waits on.
  if (standing.kind === 'ahead') return { ...decided, waitMs: standing.waitMs, stretch, granted: { tier, calls: 0 } }
  const ruleWaitMs = decideLease(
    ledger.state,
    budgetPerSecond,
    { tier, cost, key: request.key, step: request.step, onTurn: standing.kind === 'due' || unused !== undefined, holder: request.holder },
    now,
  )
  const granted = { tier, calls: ruleWaitMs === 0 ? cost : 0 }
  if (!queue) return { ...decided, waitMs: ruleWaitMs, stretch, granted }
  const { key } = queue
  const waitMs = nextTurn(ledger.turns, { key, tier, ruleWaitMs, ratePerSecond: queue.rates[queue.tier] }, now)
  const intervalMs = request.intervalMs && request.intervalMs > 0 ? request.intervalMs : DEFAULT_INTERVAL_MS
  // While it waits for its place, its demand stands.
  if (waitMs > 0) keepDemand(ledger.demand, key, now + waitMs + 3 * intervalMs)
  // Served, it comes back after its stretched interval, but within REASK_MS: a stretch worked
  // out while near dates took the budget sent far dates to sleep for MAX_STRETCH intervals (two
  // hours), and their queue had room for most of that time. Its queue decides the rest.
  return { ...decided, waitMs, stretch: Math.min(stretch, Math.max(1, REASK_MS / intervalMs)), granted }
}
