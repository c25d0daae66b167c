// The one budget for every platform call from the cloud (issue 23 item 2): a single Durable
// Object hands out leases — "make these calls now" or "ask again in N ms" — within 10 s × the
// operator's rate (PLATFORM_CALLS_PER_SECOND) in any 10 s, earlier tiers first, release instants
// given the window's room (lease-rule.ts, call-window.ts, budget-bucket.ts, call-priority.ts).
// Enforced across the whole service, not per isolate: every availability object, calendar object
// and use case asks this one object.
//
// Kept in memory only, so a lease costs no storage write. If the object is evicted or restarted,
// it forgets the window's calls and the announced releases: at most one window of calls extra,
// once, and a release announced before then gets no held room (its burst still comes first).
import { DurableObject } from 'cloudflare:workers'
import type { Lease, LeaseRequest } from './budget'
import { budgetFrom } from './budget'
import { allocationOf, emptyDemand, noteDemand, spreadWait } from './budget-bucket'
import { type CallFigures, callFigures, emptyCallLog, logCalls } from './call-log'
import type { Allocation } from './call-priority'
import { TIERS, type Tier } from './call-priority'
import { DROP_HOLD_MS, type ExpectedDrop, windowLimitOf } from './call-window'
import { decideLease, emptyLeaseState } from './lease-rule'

export interface BudgetFigures extends CallFigures {
  callsPerSecond: number
  /** Calls per second each tier wants, gets, and how much its cadence stretches. */
  demand: Allocation['demand']
  granted: Allocation['granted']
  stretch: Allocation['stretch']
  /** Calls per second wanted and not granted. */
  shortfall: number
  /** The release instants pollers announced, still ahead or in their burst: the window's room is held for them. */
  releases: ExpectedDrop[]
}

const DAY_MS = 86_400_000

export class BudgetObject extends DurableObject<Cloudflare.Env> {
  #state = emptyLeaseState()
  #demand = emptyDemand()
  #log = emptyCallLog()
  /** Pollers refused lately (their key → tier, and until when they were told to wait): the backlog a refusal spreads over. */
  #waiting = new Map<string, { tier: Tier; until: number }>()
  /** A budget set at run time (setBudget), until the object restarts; null: PLATFORM_CALLS_PER_SECOND. */
  #override: number | null = null

  /**
   * Changes the budget at once, without a deploy (an operator lowering it after a block, or a
   * test); forgotten when the object restarts. null goes back to PLATFORM_CALLS_PER_SECOND.
   */
  setBudget(callsPerSecond: number | null): void {
    this.#override = callsPerSecond !== null && Number.isFinite(callsPerSecond) && callsPerSecond > 0 ? callsPerSecond : null
    // The window and the bucket start afresh at the new rate (the calls of the last 10 s were
    // made under the old one), as after a restart; announced releases stand. The waits already
    // told stand too; the queue they were spread over is counted afresh.
    this.#state = { ...emptyLeaseState(), drops: this.#state.drops }
    this.#waiting.clear()
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
    const ruleWaitMs = decideLease(this.#state, budget, { tier, cost, key: request.key, step: request.step }, now)
    if (ruleWaitMs === 0 && cost > 0) logCalls(this.#log, now, tier, cost)
    // A booking call comes back when its room frees, not at a moment spread over the pollers' queue.
    const waitMs = request.key && tier !== 'booking' ? this.#pollerWait(request.key, tier, ruleWaitMs, budget, now) : ruleWaitMs
    return { waitMs, stretch: allocationOf(this.#demand, budget, now).stretch[tier] }
  }

  /**
   * A poller will burst at a release instant (`at`) and expects about `calls` calls then: from a
   * window before it, polls leave it the room (call-window.ts). Announced again, it is replaced.
   */
  expectRelease(drop: ExpectedDrop & { key: string }): void {
    const now = Date.now()
    if (!Number.isFinite(drop.at) || drop.at <= now || drop.at > now + DAY_MS || !(drop.calls > 0)) return
    this.#state.drops.set(drop.key, { at: drop.at, calls: Math.min(drop.calls, windowLimitOf(this.#budget())) })
  }

  /**
   * A refused poller's wait, spread over the backlog ahead of it: the pollers of its tier and the
   * earlier ones refused before it (budget-bucket.ts spreadWait). A near date is not sent to the
   * back of a queue of far dates: those take calls only when the near ones leave some.
   */
  #pollerWait(key: string, tier: Tier, bucketWaitMs: number, budget: number, now: number): number {
    for (const [k, w] of this.#waiting) if (w.until <= now) this.#waiting.delete(k)
    if (bucketWaitMs === 0) {
      this.#waiting.delete(key)
      return 0
    }
    const rank = TIERS.indexOf(tier)
    const ahead = [...this.#waiting.values()].filter((w) => TIERS.indexOf(w.tier) <= rank).length
    const waitMs = spreadWait(bucketWaitMs, ahead, budget, Math.random())
    this.#waiting.set(key, { tier, until: now + waitMs })
    return waitMs
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
      releases: [...this.#state.drops.values()].filter((d) => now < d.at + DROP_HOLD_MS).sort((x, y) => x.at - y.at),
      ...callFigures(this.#log, now),
    }
  }
}
