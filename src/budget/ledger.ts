// What the one budget remembers (issue 23) and a lease decided against it, pure: the window's
// rule and the bucket (lease-rule.ts), the demand each tier puts on it (budget-bucket.ts), and
// the queues of refused pollers (poll-turns.ts). The BudgetObject keeps one Ledger in memory.
import type { Lease, LeaseRequest } from './budget'
import { allocationOf, type Demand, demandPerTier, emptyDemand, keepDemand, noteDemand } from './budget-bucket'
import { allocate, MAX_STRETCH, shareOf, TIERS, type Tier, zeroPerTier } from './call-priority'
import { POLL_RATE_SHARE } from './call-window'
import { decideLease, emptyLeaseState, type LeaseState } from './lease-rule'
import { emptyTurns, nextTurn, type Turns, turnOf } from './poll-turns'

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
 * The rate each queue's turns are spaced at: the polls' share of the budget (the bucket's own
 * rate), split between near and far dates as each could get it (call-priority.ts shareOf), and
 * together never faster than the bucket. Bookings, bursts and lookups are left out: they come
 * and go within seconds, and a turn told is kept. Spaced for a rush of sign-ins, the turns kept
 * its pace for minutes after it (the scale bench used a quarter of the budget). When the earlier
 * tiers do take the room, the window refuses a poller on its turn, and it queues again.
 */
function queueRates(demand: Demand, budgetPerSecond: number, now: number): Record<QueuedTier, number> {
  const { near, far } = demandPerTier(demand, now)
  const a = allocate({ ...zeroPerTier(), near, far }, budgetPerSecond * POLL_RATE_SHARE)
  const rates = { near: shareOf(a, 'near'), far: shareOf(a, 'far') }
  const scale = Math.min(1, a.budgetPerSecond / (rates.near + rates.far))
  return { near: rates.near * scale, far: rates.far * scale }
}

/** Decides one lease (mutates `ledger`); `granted` says how many calls of which tier go now (0 when told to wait). */
export function leaseFrom(
  ledger: Ledger,
  budgetPerSecond: number,
  request: LeaseRequest,
  now: number,
): Lease & { granted: { tier: Tier; calls: number } } {
  const tier = TIERS.includes(request.tier) ? request.tier : 'far'
  const cost = Math.max(0, Math.min(50, Math.floor(request.cost)))
  const asked = { ...request, tier, cost }
  // Demand is noted whether or not the calls go now: it is what the tier would ask at its
  // cadence. A poller asking again is replaced by its key, not added; a waiting lookup's asks
  // are each counted, which overstates its demand a little (later tiers stretch sooner: the safe side).
  if (cost > 0) noteDemand(ledger.demand, asked, now)
  const stretch = allocationOf(ledger.demand, budgetPerSecond, now).stretch[tier]
  const key = queued(tier) ? request.key : undefined
  const standing = key ? turnOf(ledger.turns, key, now) : ({ kind: 'none' } as const)
  // Still ahead of its turn (another caller with the same key): it waits for that turn.
  if (standing.kind === 'ahead') return { waitMs: standing.waitMs, stretch, granted: { tier, calls: 0 } }
  const ruleWaitMs = decideLease(
    ledger.state,
    budgetPerSecond,
    { tier, cost, key: request.key, step: request.step, onTurn: standing.kind === 'due' },
    now,
  )
  const granted = { tier, calls: ruleWaitMs === 0 ? cost : 0 }
  if (!key || !queued(tier)) return { waitMs: ruleWaitMs, stretch, granted }
  const intervalMs = request.intervalMs && request.intervalMs > 0 ? request.intervalMs : DEFAULT_INTERVAL_MS
  const waitMs = nextTurn(
    ledger.turns,
    {
      key,
      tier,
      ruleWaitMs,
      ratePerSecond: queueRates(ledger.demand, budgetPerSecond, now)[tier],
      maxWaitMs: MAX_STRETCH * intervalMs,
    },
    now,
  )
  // While it waits for its turn, its demand stands.
  if (waitMs > 0) keepDemand(ledger.demand, key, now + waitMs + 3 * intervalMs)
  return { waitMs, stretch, granted }
}
