// The budget's hard rule, pure: never more than 10 s × the budget calls in any 10 s,
// the window the issue measures the platform's side by. Inside it, a release instant gets the
// window's calls at once. The evidence for a poller is "≥ 1–2 s between polls outside the drop
// window and a short, bounded burst at the drop" (docs/platform.md, "Calendar and release"): a smooth
// 3 calls a second finds 10 tables that open together one after another over seconds, while the
// 30 calls of a quiet window find them all at the instant and book most of them within one.
//
// So availability objects announce the release instants they will burst at (expectRelease), and
// from WINDOW_MS before an instant to DROP_HOLD_MS after it, polls leave the window's room to the
// release: when it comes, the window holds no poll, and its finds and the bookings they start
// take what the window allows, bursts leaving a third to the bookings their finds start. Outside
// releases, polls leave a small margin (MARGIN_SHARE) to bursts and bookings.
import type { Tier } from './call-priority'

export const WINDOW_MS = 10_000
/** After a release instant, polls keep leaving its room this long: the burst's fast phase. */
export const DROP_HOLD_MS = 10_000
/** A release burst's polls take at most this share of the window: the rest is for the bookings their finds start. */
const BURST_SHARE = 2 / 3
/**
 * Outside releases, bursts leave this share of the window to bookings, and polls twice it to
 * bursts and bookings (at the default of 30 calls in 10 s: one call, and two).
 */
const MARGIN_SHARE = 0.05
/** The share of the budget polls get at most, smoothed (budget-bucket.ts): what their ceiling leaves. */
export const POLL_RATE_SHARE = 1 - 2 * MARGIN_SHARE

export interface Grant {
  at: number
  count: number
  /** A booking's first call (its details), its book, another call of it (the reservations before book), a verification, or any other. */
  kind: 'booking-start' | 'booking-book' | 'booking' | 'booking-verify' | 'other'
  /** The request a booking's call is for, when the caller says (a booking start: see `startedFor`). */
  holder?: string
}

/** A release instant a poller will burst at, and the calls it expects then (its finds and the bookings they may start). */
export interface ExpectedDrop {
  at: number
  calls: number
}

export const windowLimitOf = (budgetPerSecond: number) => Math.max(1, Math.floor((budgetPerSecond * WINDOW_MS) / 1000))

/** Forgets the grants that left the window (mutates `grants`, oldest first) and counts the rest. */
export function usedIn(grants: Grant[], now: number): number {
  while (grants.length > 0 && (grants[0]?.at ?? now) <= now - WINDOW_MS) grants.shift()
  return grants.reduce((sum, g) => sum + g.count, 0)
}

/**
 * Takes back up to `count` calls of a grant made at `at` (mutates `grants`): its caller got the
 * grant too late to use it and asks afresh (budget.ts FRESH_GRANT_MS). Returns how many were
 * taken back (0 when the window no longer records that grant).
 */
export function giveBack(grants: Grant[], at: number, kind: Grant['kind'], count: number): number {
  for (let i = grants.length - 1; i >= 0; i--) {
    const g = grants[i]
    if (!g || g.at !== at || g.kind !== kind) continue
    const taken = Math.min(g.count, count)
    g.count -= taken
    if (g.count === 0) grants.splice(i, 1)
    return taken
  }
  return 0
}

const holding = (drop: ExpectedDrop, now: number) => now >= drop.at - WINDOW_MS && now < drop.at + DROP_HOLD_MS

/** The window's room polls leave to release instants now (forgets the drops that are over). */
export function heldForDrops(drops: Map<string, ExpectedDrop>, now: number, limit: number): number {
  let held = 0
  for (const [key, drop] of drops) {
    if (now >= drop.at + DROP_HOLD_MS) drops.delete(key)
    else if (holding(drop, now)) held += Math.max(0, drop.calls)
  }
  return Math.min(limit, held)
}

/** When the room held now is given back (the earliest end of a hold in force), or null if none is. */
export function holdEndsAt(drops: Map<string, ExpectedDrop>, now: number): number | null {
  const ends = [...drops.values()].filter((d) => holding(d, now)).map((d) => d.at + DROP_HOLD_MS)
  return ends.length > 0 ? Math.min(...ends) : null
}

/** The calls a booking makes after its first (the account's reservations, then book). */
export const BOOKING_CALLS_AFTER_START = 2
/** Calls a booking makes with the user's token: details, the account's reservations, book. */
export const BOOKING_CALLS = 1 + BOOKING_CALLS_AFTER_START

/**
 * The later calls owed to the bookings started in the window: a booking that has its details
 * must get its book before another booking starts, or ten bookings starting together take the
 * window with their details and reservation lists and none of them books (the release bench did).
 */
export function owedToStartedBookings(grants: readonly Grant[]): { calls: number; books: number } {
  let started = 0
  let books = 0
  let later = 0
  for (const g of grants) {
    if (g.kind === 'booking-start') started += g.count
    else if (g.kind === 'booking-book') books += g.count
    else if (g.kind === 'booking') later += g.count
  }
  return { calls: Math.max(0, BOOKING_CALLS_AFTER_START * started - books - later), books: Math.max(0, started - books) }
}

/**
 * Whether a booking for `holder` (a request) started within the window: another start for it is
 * its second table at this instant, which waits for every other request's first (ceilingOf).
 */
export const startedFor = (grants: readonly Grant[], holder: string | undefined) =>
  holder !== undefined && grants.some((g) => g.kind === 'booking-start' && g.holder === holder)

/**
 * A booking's first call (its details), its book, or a verification of one already made (the
 * account's reservations read after book); other calls with a user's token have none.
 */
export type BookingStep = 'start' | 'book' | 'verify'

export interface WindowRoom {
  limit: number
  /** Room held for announced release instants. */
  held: number
  /** The calls of the bookings waiting for room: every later tier leaves it to them. */
  waitingBookings: number
  /** Of those, the calls of bookings waiting to start a request's first table: a second table leaves them room. */
  waitingFirstTables: number
  /** Later calls owed to the bookings already started, and their books among them. */
  owed: { calls: number; books: number }
}

/**
 * How full a tier may bring the window, so that each tier finds room the later ones may not
 * take: bookings all of it (a booking's first call all but what the started bookings and its
 * own later calls need, its other calls all but the books owed);
 * release bursts all but a margin for bookings (a third of the window while a release's room is
 * held: the bookings its finds start); polls all but twice the margin, and the room held for
 * releases. Bursts and polls also leave the room booking calls are waiting for.
 */
export function ceilingOf(tier: Tier, room: WindowRoom, step?: BookingStep, secondTable = false): number {
  const { limit, held, waitingBookings, owed } = room
  const margin = Math.floor(limit * MARGIN_SHARE)
  if (tier === 'booking') {
    // A booking starts only with room for its own later calls too; a book always has room; any
    // other call with a user's token (a reservation list, a verification) leaves the books owed.
    // A request's second table at an instant also leaves room for every other request's first.
    if (step === 'start') {
      const start = limit - owed.calls - BOOKING_CALLS_AFTER_START
      return secondTable ? Math.max(0, start - room.waitingFirstTables) : Math.max(1, start)
    }
    // A verification can wait seconds: the table is booked (or not) already. It leaves the calls
    // the started bookings still owe, and the room first tables are waiting for.
    if (step === 'verify') return Math.max(0, limit - owed.calls - room.waitingFirstTables)
    return step === 'book' ? limit : Math.max(1, limit - owed.books)
  }
  if (tier === 'burst') {
    const forBookings = held > 0 ? Math.max(margin, Math.round(limit * (1 - BURST_SHARE))) : margin
    return Math.max(1, limit - forBookings - waitingBookings)
  }
  return Math.max(0, limit - Math.max(2 * margin, held) - waitingBookings)
}

/**
 * How long until `cost` more calls fit under `ceiling`: 0 now, else until enough grants leave the
 * window; null when they never would (the ceiling itself is below the cost).
 */
export function windowWait(grants: readonly Grant[], used: number, cost: number, ceiling: number, now: number): number | null {
  if (used + cost <= ceiling) return 0
  if (cost > ceiling) return null
  let left = used
  for (const g of grants) {
    left -= g.count
    if (left + cost <= ceiling) return Math.max(1, g.at + WINDOW_MS - now)
  }
  return Math.max(1, WINDOW_MS)
}
