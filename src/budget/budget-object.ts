// The one budget for every platform call from the cloud (issue 23 item 2): a single Durable
// Object hands out leases — "make these calls now" or "ask again in N ms" — from a token bucket
// refilled at the operator's rate (PLATFORM_CALLS_PER_SECOND), earlier tiers first
// (call-priority.ts, budget-bucket.ts). Enforced across the whole service, not per isolate: every
// availability object, calendar object and use case asks this one object.
//
// Kept in memory only, so a lease costs no storage write. If the object is evicted or restarted,
// the bucket starts full again: at most half a second of calls (BURST_SECONDS) extra, once.
import { DurableObject } from 'cloudflare:workers'
import type { Lease, LeaseRequest } from './budget'
import { budgetFrom } from './budget'
import { allocationOf, type Bucket, emptyDemand, noteDemand, takeCalls } from './budget-bucket'
import { type CallFigures, callFigures, emptyCallLog, logCalls } from './call-log'
import type { Allocation } from './call-priority'
import { TIERS } from './call-priority'

export interface BudgetFigures extends CallFigures {
  callsPerSecond: number
  /** Calls per second each tier wants, gets, and how much its cadence stretches. */
  demand: Allocation['demand']
  granted: Allocation['granted']
  stretch: Allocation['stretch']
  /** Calls per second wanted and not granted. */
  shortfall: number
}

export class BudgetObject extends DurableObject<Cloudflare.Env> {
  #bucket: Bucket | null = null
  #demand = emptyDemand()
  #log = emptyCallLog()
  /** A budget set at run time (setBudget), until the object restarts; null: PLATFORM_CALLS_PER_SECOND. */
  #override: number | null = null

  /**
   * Changes the budget at once, without a deploy (an operator lowering it after a block, or a
   * test); forgotten when the object restarts. null goes back to PLATFORM_CALLS_PER_SECOND.
   */
  setBudget(callsPerSecond: number | null): void {
    this.#override = callsPerSecond !== null && Number.isFinite(callsPerSecond) && callsPerSecond > 0 ? callsPerSecond : null
    this.#bucket = null
  }

  #budget(): number {
    return this.#override ?? budgetFrom(this.env)
  }

  lease(request: LeaseRequest): Lease {
    const now = Date.now()
    const budget = this.#budget()
    const tier = TIERS.includes(request.tier) ? request.tier : 'far'
    const cost = Math.max(0, Math.min(50, Math.floor(request.cost)))
    const asked = { ...request, tier, cost }
    // Demand is noted whether or not the calls go now: it is what the tier would ask at its
    // cadence. A poller asking again is replaced by its key, not added; a waiting lookup's asks
    // are each counted, which overstates its demand a little (later tiers stretch sooner: the safe side).
    if (cost > 0) noteDemand(this.#demand, asked, now)
    const got = takeCalls(this.#bucket, budget, tier, cost, now)
    this.#bucket = got.bucket
    if (got.waitMs === 0 && cost > 0) logCalls(this.#log, now, tier, cost)
    return { waitMs: got.waitMs, stretch: allocationOf(this.#demand, budget, now).stretch[tier] }
  }

  figures(): BudgetFigures {
    const now = Date.now()
    const budget = this.#budget()
    const a = allocationOf(this.#demand, budget, now)
    return {
      callsPerSecond: budget,
      demand: a.demand,
      granted: a.granted,
      stretch: a.stretch,
      shortfall: a.shortfall,
      ...callFigures(this.#log, now),
    }
  }
}
