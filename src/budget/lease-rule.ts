// One lease decided, pure: the window's hard rule for every tier (call-window.ts),
// then the token bucket's smoothing and tier floors for polls and lookups (budget-bucket.ts).
// The BudgetObject keeps one LeaseState in memory and asks this for each lease.
import { type Bucket, takeCalls } from './budget-bucket'
import type { Tier } from './call-priority'
import {
  BOOKING_CALLS_AFTER_START,
  type BookingStep,
  ceilingOf,
  type ExpectedDrop,
  type Grant,
  heldForDrops,
  holdEndsAt,
  owedToStartedBookings,
  POLL_RATE_SHARE,
  startedFor,
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
  /**
   * Booking calls refused for want of room: their key → until when they were told to wait, the
   * calls they stand for, and whether they would start a request's first table at this instant.
   */
  waitingBookings: Map<string, { until: number; calls: number; firstTable: boolean }>
}

export const emptyLeaseState = (): LeaseState => ({ bucket: null, grants: [], drops: new Map(), waitingBookings: new Map() })

export interface LeaseAsk {
  tier: Tier
  cost: number
  /** A booking call's own name: while it waits, the later tiers leave it room. */
  key?: string
  /** A booking's first call (its details) or its book. */
  step?: BookingStep
  /** A poll whose place in its queue has come (poll-turns.ts): the window alone holds it back. */
  onTurn?: boolean
  /** The request a booking call is for (call-window.ts startedFor). */
  holder?: string
}

/** A request's second table waiting for other requests' first tables to start asks again this soon. */
export const SECOND_TABLE_WAIT_MS = 500

/** A refused booking call is remembered a little past its wait, long enough to ask again. */
const BOOKING_WAIT_GRACE_MS = 2_000

/** Grants the calls now (0, recorded in `state`) or says how long to wait before asking again. */
export function decideLease(state: LeaseState, budgetPerSecond: number, ask: LeaseAsk, now: number): number {
  const { tier, cost } = ask
  if (cost <= 0) return 0
  const limit = windowLimitOf(budgetPerSecond)
  const used = usedIn(state.grants, now)
  let waitingBookings = 0
  let waitingFirstTables = 0
  for (const [key, waiting] of state.waitingBookings) {
    if (waiting.until <= now) state.waitingBookings.delete(key)
    else if (key !== ask.key) {
      waitingBookings += waiting.calls
      if (waiting.firstTable) waitingFirstTables += waiting.calls
    }
  }
  const room = {
    limit,
    held: heldForDrops(state.drops, now, limit),
    waitingBookings,
    waitingFirstTables,
    owed: owedToStartedBookings(state.grants),
  }
  const secondTable = ask.step === 'start' && startedFor(state.grants, ask.holder)
  const ceiling = ceilingOf(tier, room, ask.step, secondTable)
  const inWindow = windowWait(state.grants, used, cost, ceiling, now)
  // A ceiling below the cost: releases or waiting bookings hold the room until their hold ends;
  // a second table held back for other requests' first ones asks again soon (they start or give up).
  const waitMs =
    secondTable && room.waitingFirstTables > 0 && inWindow !== 0
      ? SECOND_TABLE_WAIT_MS
      : inWindow === null
        ? Math.max(1, (holdEndsAt(state.drops, now) ?? now + WINDOW_MS) - now)
        : inWindow > 0
          ? inWindow
          : granted(state, budgetPerSecond, ask, now)
  if (tier === 'booking' && ask.key) {
    // A booking waiting to start stands for all its calls.
    const calls = ask.step === 'start' ? cost + BOOKING_CALLS_AFTER_START : cost
    const firstTable = ask.step === 'start' && !secondTable
    if (waitMs > 0) state.waitingBookings.set(ask.key, { until: now + waitMs + BOOKING_WAIT_GRACE_MS, calls, firstTable })
    else state.waitingBookings.delete(ask.key)
  }
  return waitMs
}

/** The bucket's say (polls wait for it; bookings, bursts and polls whose place has come are charged), and the grant recorded. */
function granted(state: LeaseState, budgetPerSecond: number, ask: LeaseAsk, now: number): number {
  // The bucket refills at the polls' share of the window, so that it, not the window, holds
  // polls back, and its floors keep near dates ahead of far ones.
  const got = takeCalls(state.bucket, budgetPerSecond * POLL_RATE_SHARE, ask.tier, ask.cost, now, ask.onTurn)
  state.bucket = got.bucket
  if (got.waitMs > 0) return got.waitMs
  state.grants.push({ at: now, count: ask.cost, kind: grantKindOf(ask), ...(ask.holder ? { holder: ask.holder } : {}) })
  return 0
}

/** How the window records a grant (call-window.ts owedToStartedBookings reads the booking steps). */
export function grantKindOf(ask: Pick<LeaseAsk, 'tier' | 'step'>): Grant['kind'] {
  if (ask.tier !== 'booking') return 'other'
  if (ask.step === 'verify') return 'booking-verify'
  return ask.step === 'start' ? 'booking-start' : ask.step === 'book' ? 'booking-book' : 'booking'
}
