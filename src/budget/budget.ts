// The service-wide budget for platform calls from the cloud (issue 23 item 2): its setting, and
// how callers get a lease from the one BudgetObject. Calls a paired device makes (issue 17) never
// come here: they are not the cloud's.
import type { Tier } from './call-priority'
import type { BookingStep } from './call-window'

/**
 * Calls per second for the whole service, PLATFORM_CALLS_PER_SECOND (docs/decisions.md, issue 23):
 * public background pollers keep to about 1 a second per client (`xunhuang/yumyum-v2`), one
 * sniper keeps ≥ 2 s between attempts ([idx 39098259635]), datacenter addresses are blocked first
 * (shared/reference/resy-api.md §7, §11). Three is a few such clients' worth, and 10,800 calls an
 * hour at most (the issue's ceiling for 10,000 requests is 13,000).
 */
export const DEFAULT_CALLS_PER_SECOND = 3
const MAX_CALLS_PER_SECOND = 1000

export function budgetFrom(env: { PLATFORM_CALLS_PER_SECOND?: string }): number {
  const value = Number(env.PLATFORM_CALLS_PER_SECOND ?? '')
  if (!env.PLATFORM_CALLS_PER_SECOND || !Number.isFinite(value) || value <= 0) return DEFAULT_CALLS_PER_SECOND
  return Math.min(MAX_CALLS_PER_SECOND, value)
}

export interface LeaseRequest {
  tier: Tier
  /** Calls wanted now. */
  cost: number
  /**
   * A poller's own name and planned interval: its demand is cost per interval (budget-bucket.ts).
   * A booking call's own name: while it waits, later tiers leave it room (lease-rule.ts).
   */
  key?: string
  intervalMs?: number
  /** A booking's first call (its details), which leaves the room the started bookings still need, or its book, which always has room. */
  step?: BookingStep
}

export interface Lease {
  /** 0: make the calls now; else ask again after this long. */
  waitMs: number
  /** How much the budget stretches this tier's cadence now (1: as planned). */
  stretch: number
}

/** The one budget object of the service. */
export const budgetObject = (env: Cloudflare.Env) => env.BUDGET.get(env.BUDGET.idFromName('service'))

/** Asks once; never waits. */
export function leaseCalls(env: Cloudflare.Env, request: LeaseRequest): Promise<Lease> {
  return budgetObject(env).lease(request)
}

/**
 * Waits for a lease, asking again when told, for at most `maxWaitMs`; false when none came in
 * time (the caller answers as the platform would to a client going too fast: slow down).
 */
export async function awaitLease(env: Cloudflare.Env, request: LeaseRequest, maxWaitMs: number): Promise<boolean> {
  const deadline = Date.now() + maxWaitMs
  for (;;) {
    const { waitMs } = await leaseCalls(env, request)
    if (waitMs === 0) return true
    if (Date.now() + waitMs > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, waitMs))
  }
}

/**
 * Tells the budget that a poller will burst at a release instant, expecting about `calls` calls
 * then (call-window.ts). Best effort: a poll never fails for it.
 */
export async function expectRelease(env: Cloudflare.Env, drop: { key: string; at: number; calls: number }): Promise<void> {
  await budgetObject(env)
    .expectRelease(drop)
    .catch(() => undefined)
}
