// One lease decided (issue 23), pure: the window's hard rule for every tier (call-window.ts),
// then the token bucket's smoothing and tier floors for polls and lookups (budget-bucket.ts).
// The BudgetObject keeps one LeaseState in memory and asks this for each lease.
import { type Bucket, takeCalls } from './budget-bucket'
import type { Tier } from './call-priority'
import {
  ceilingOf,
  type ExpectedDrop,
  type Grant,
  heldForDrops,
  holdEndsAt,
  POLL_RATE_SHARE,
  usedIn,
  WINDOW_MS,
  windowLimitOf,
  windowWait,
} from './call-window'

export interface LeaseState {
  bucket: Bucket | null
  /** The calls granted in the last WINDOW_MS, oldest first. */
  grants: Grant[]
  /** Release instants announced by pollers, by poller. */
  drops: Map<string, ExpectedDrop>
}

export const emptyLeaseState = (): LeaseState => ({ bucket: null, grants: [], drops: new Map() })

/** Grants `cost` calls to `tier` now (0, recorded in `state`) or says how long to wait before asking again. */
export function decideLease(state: LeaseState, budgetPerSecond: number, tier: Tier, cost: number, now: number): number {
  if (cost <= 0) return 0
  const limit = windowLimitOf(budgetPerSecond)
  const used = usedIn(state.grants, now)
  const ceiling = ceilingOf(tier, { limit, held: heldForDrops(state.drops, now, limit) })
  const inWindow = windowWait(state.grants, used, cost, ceiling, now)
  // A ceiling below the cost: releases hold the room until their hold ends.
  if (inWindow === null) return Math.max(1, (holdEndsAt(state.drops, now) ?? now + WINDOW_MS) - now)
  if (inWindow > 0) return inWindow
  // The bucket refills at the polls' share of the window, so that it, not the window, holds
  // polls back, and its floors keep near dates ahead of far ones.
  const got = takeCalls(state.bucket, budgetPerSecond * POLL_RATE_SHARE, tier, cost, now)
  state.bucket = got.bucket
  if (got.waitMs > 0) return got.waitMs
  state.grants.push({ at: now, count: cost })
  return 0
}
