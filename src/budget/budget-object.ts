// The one budget for every platform call from the cloud: a single Durable
// Object hands out leases — "make these calls now" or "ask again in N ms" — within 10 s × the
// operator's rate (PLATFORM_CALLS_PER_SECOND) in any 10 s, earlier tiers first, release instants
// given the window's room, refused polls given a place in a queue (ledger.ts and the rules it reads).
// Enforced across the whole service, not per isolate: every availability object, calendar object
// and use case asks this one object.
//
// Kept in memory only, so a lease costs no storage write. If the object is evicted or restarted,
// it forgets the window's calls and the announced releases: at most one window of calls extra,
// once, and a release announced before then gets no held room (its burst still comes first).
import { DurableObject } from 'cloudflare:workers'
import type { Lease, LeaseRequest } from './budget'
import { budgetFrom } from './budget'
import { allocationOf } from './budget-bucket'
import { type CallFigures, callFigures, emptyCallLog, logCalls } from './call-log'
import type { Allocation } from './call-priority'
import { DROP_HOLD_MS, type ExpectedDrop, windowLimitOf } from './call-window'
import { emptyLedger, leaseFrom } from './ledger'

interface BudgetFigures extends CallFigures {
  callsPerSecond: number
  /** Calls per second each tier wants, gets, and how much its cadence stretches. */
  demand: Allocation['demand']
  granted: Allocation['granted']
  stretch: Allocation['stretch']
  /** Calls per second wanted and not granted. */
  shortfall: number
  /** The release instants pollers announced, still ahead or in their burst: the window's room is held for them. */
  releases: ExpectedDrop[]
  /** Grants given back since the object started, because they reached their callers too late to use (budget.ts FRESH_GRANT_MS). */
  lateGrants: number
}

const DAY_MS = 86_400_000

export class BudgetObject extends DurableObject<Cloudflare.Env> {
  #ledger = emptyLedger()
  #log = emptyCallLog()
  /** A budget set at run time (setBudget), until the object restarts; null: PLATFORM_CALLS_PER_SECOND. */
  #override: number | null = null
  #lateGrants = 0

  /**
   * Changes the budget at once, without a deploy (an operator lowering it after a block, or a
   * test); forgotten when the object restarts. null goes back to PLATFORM_CALLS_PER_SECOND.
   */
  setBudget(callsPerSecond: number | null): void {
    this.#override = callsPerSecond !== null && Number.isFinite(callsPerSecond) && callsPerSecond > 0 ? callsPerSecond : null
    // The window, the bucket and the queues start afresh at the new rate (the calls of the last
    // 10 s were made under the old one), as after a restart; announced releases and the demand
    // stand. The waits already told stand too: those pollers ask again and take new places.
    const { demand, state } = this.#ledger
    this.#ledger = { ...emptyLedger(), demand, state: { ...emptyLedger().state, drops: state.drops } }
  }

  #budget(): number {
    return this.#override ?? budgetFrom(this.env)
  }

  lease(request: LeaseRequest): Lease {
    const now = Date.now()
    const { granted, givenBack, ...lease } = leaseFrom(this.#ledger, this.#budget(), request, now)
    if (givenBack) {
      // The log counts calls that left: a grant given back never did.
      logCalls(this.#log, givenBack.at, granted.tier, -givenBack.calls)
      this.#lateGrants += givenBack.calls
    }
    if (granted.calls > 0) logCalls(this.#log, now, granted.tier, granted.calls)
    return lease
  }

  /**
   * A poller will burst at a release instant (`at`) and expects about `calls` calls then: from a
   * window before it, polls leave it the room (call-window.ts). Announced again, it is replaced.
   */
  expectRelease(drop: ExpectedDrop & { key: string }): void {
    const now = Date.now()
    if (!Number.isFinite(drop.at) || drop.at <= now || drop.at > now + DAY_MS || !(drop.calls > 0)) return
    this.#ledger.state.drops.set(drop.key, { at: drop.at, calls: Math.min(drop.calls, windowLimitOf(this.#budget())) })
  }

  figures(): BudgetFigures {
    const now = Date.now()
    const budget = this.#budget()
    const a = allocationOf(this.#ledger.demand, budget, now)
    return {
      callsPerSecond: budget,
      demand: a.demand,
      granted: a.granted,
      stretch: a.stretch,
      shortfall: a.shortfall,
      releases: [...this.#ledger.state.drops.values()].filter((d) => now < d.at + DROP_HOLD_MS).sort((x, y) => x.at - y.at),
      lateGrants: this.#lateGrants,
      ...callFigures(this.#log, now),
    }
  }
}
