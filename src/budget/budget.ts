// The service-wide budget for platform calls from the cloud: its setting, and
// how callers get a lease from the one BudgetObject. Calls a paired device makes never
// come here: they are not the cloud's.
import type { Tier } from './call-priority'
import type { BookingStep } from './call-window'

/**
 * Calls per second for the whole service, PLATFORM_CALLS_PER_SECOND (docs/decisions/budget.md):
 * public background pollers keep to about 1 a second per client (`xunhuang/yumyum-v2`), one
 * sniper keeps ≥ 2 s between attempts ([idx 39098259635]), datacenter addresses are blocked first
 * (docs/platform.md, "Rates"). Three is a few such clients' worth, and 10,800 calls an
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
  /**
   * The request a booking call is for. At a release instant every request's first table is
   * started before any request's second (call-window.ts startedFor, docs/decisions/budget.md).
   */
  holder?: string
  /**
   * The time of a grant this caller got too late to use (`Lease.grantedAt`, FRESH_GRANT_MS): the
   * budget takes it out of its window, and the calls it stood for are asked for again, as on their turn.
   */
  unused?: number
}

export interface Lease {
  /** 0: make the calls now; else ask again after this long. */
  waitMs: number
  /** How much the budget stretches this tier's cadence now (1: as planned). */
  stretch: number
  /** When the budget decided, by its clock: a grant is for calls leaving then. */
  grantedAt: number
}

/**
 * A grant that reaches its caller later than this is not used: the window counts a call when it
 * is granted, and calls granted before a runtime stall left together after it. At scale beside
 * the test suite, calls granted over about 20 s reached the platform within 10 s: 57 where the
 * window had granted at most 28 (docs/benchmarks.md). Within a second of its grant a
 * call stays inside the bound's margin (10 × budget × 1.1 in any 10 s: one more second's calls).
 */
export const FRESH_GRANT_MS = 1_000
/** A caller stalled this many times over asks again later rather than on and on (its last grant stays counted). */
export const STALE_ASKS = 4

/** The one budget object of the service. */
export const budgetObject = (env: Cloudflare.Env) => env.BUDGET.get(env.BUDGET.idFromName('service'))

/**
 * Asks for a lease; never waits for one. A grant that arrives stale (the budget object's answer
 * or this isolate stalled) is given back and asked for afresh, so that the calls leave within
 * FRESH_GRANT_MS of the moment the window counted them.
 */
export function leaseCalls(env: Cloudflare.Env, request: LeaseRequest): Promise<Lease> {
  const budget = budgetObject(env)
  return freshLease((r) => budget.lease(r), request)
}

/** The rule of leaseCalls, over any way of asking (`ask`) and any clock. */
export async function freshLease(
  ask: (request: LeaseRequest) => Promise<Lease>,
  request: LeaseRequest,
  clock: () => number = Date.now,
): Promise<Lease> {
  let lease = await ask(request)
  for (let stale = 1; lease.waitMs === 0 && clock() - lease.grantedAt > FRESH_GRANT_MS; stale++) {
    if (stale === STALE_ASKS) return { ...lease, waitMs: FRESH_GRANT_MS }
    lease = await ask({ ...request, unused: lease.grantedAt })
  }
  return lease
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
