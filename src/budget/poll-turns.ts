// A refused poller is told its place in a queue, not a guess (poll lag at 10,000
// requests). Pure.
//
// When venue-days want far more calls than the budget has, most of them are refused at any one
// moment. Told "a random moment within the backlog", they came back about eight times for each
// call the budget could grant: at 10,000 requests, 9 alarm runs in 10 did nothing but ask again,
// 23 a second on one workerd, and every poll was late for it (poll lag p99 2.3 s). So near and
// far dates each keep a queue. A refused poller takes the next place in its tier's queue; the
// queue is served at the rate its tier can get now (ledger.ts), and the poller is told when its
// place will come at that rate. Asked again before then, it keeps its place and is told again,
// at the rate of that moment; when its place has come, it is served. Places, not times: a time
// told is kept by a sleeping poller, and times told while near dates took most of the budget
// kept far dates asleep for an hour after near dates needed less.
import { TIERS, type Tier } from './call-priority'

interface Queue {
  /** Places handed out so far (the last place's number). */
  issued: number
  /** Places the queue has reached, at `at`: it moves on at its tier's rate, never past `issued`. */
  reached: number
  at: number
  /** The first moment not yet given to a poller whose place has come (see `slotOf`). */
  nextSlot: number
}

interface Place {
  tier: Tier
  place: number
  /** When its poller last asked: a place not asked about for a while is forgotten. */
  askedAt: number
  /** Once its place has come: the moment it goes, one of its queue's slots. */
  slot?: number
}

export interface Turns {
  queues: Partial<Record<Tier, Queue>>
  held: Map<string, Place>
}

export const emptyTurns = (): Turns => ({ queues: {}, held: new Map() })

/**
 * A poller waits at most this long before asking again, even when its place is further ahead:
 * its tier's rate may have grown meanwhile (near dates wanting less), and it learns so then.
 */
export const REASK_MS = 10 * 60_000

/** A place whose poller has not asked for this long after it was due to is forgotten (it stopped watching). */
const FORGOTTEN_AFTER_MS = REASK_MS + 60_000

export type TurnState = { kind: 'none' } | { kind: 'due' } | { kind: 'ahead'; waitMs: number }

/** The queue of `tier`, moved on to `now` at `ratePerSecond`. */
function queueAt(turns: Turns, tier: Tier, ratePerSecond: number, now: number): Queue {
  const q = turns.queues[tier] ?? { issued: 0, reached: 0, at: now, nextSlot: now }
  q.reached = Math.min(q.issued, q.reached + (Math.max(0, ratePerSecond) * Math.max(0, now - q.at)) / 1000)
  q.at = now
  turns.queues[tier] = q
  return q
}

const waitFor = (place: number, q: Queue, ratePerSecond: number) =>
  Math.min(REASK_MS, Math.ceil(((place - q.reached) / Math.max(ratePerSecond, 0.001)) * 1000))

/**
 * Where a poller of `tier` stands: no place held, its place has come, or it is still ahead (told
 * again how long, at its queue's rate now). A key is one call, whoever asks: the venue's calendar is asked
 * for by its near and far dates alike, and each waits for the place the first was given (given
 * a place each, they filled the queue with places nobody came for).
 */
export function turnOf(turns: Turns, key: string, tier: Tier, rates: Partial<Record<Tier, number>>, now: number): TurnState {
  for (const [k, p] of turns.held) if (p.askedAt < now - FORGOTTEN_AFTER_MS) turns.held.delete(k)
  const held = turns.held.get(key)
  // A place in a later tier's queue does not hold back an earlier tier's ask (a near date asking
  // for the calendar a far date queued for): it asks afresh, in its own queue, and keeps that place.
  if (!held || TIERS.indexOf(tier) < TIERS.indexOf(held.tier)) return { kind: 'none' }
  held.askedAt = now
  const rate = rates[held.tier] ?? 0
  const q = queueAt(turns, held.tier, rate, now)
  if (held.place > q.reached + 1e-6) return { kind: 'ahead', waitMs: waitFor(held.place, q, rate) }
  const slot = slotOf(held, q, rate, now)
  return slot <= now ? { kind: 'due' } : { kind: 'ahead', waitMs: slot - now }
}

/** Pollers whose places have come that may go together, when they come together. */
export const SLOTS_AT_ONCE = 3

/**
 * When a poller whose place has come goes: the queue's places move on at its rate whether or not
 * their pollers are there, so pollers that come late (a stall, a calendar they waited for) find
 * their places come all together. Served at once, they went out ten at a time, and a runtime
 * stall that shifted one such bunch by a second put 38 calls into the platform's 10 s where the
 * budget had granted 28. So they go one slot apart, at the queue's rate, each keeping its slot.
 * A poller that missed its slot by more than one gap takes the next free one.
 */
function slotOf(held: Place, q: Queue, ratePerSecond: number, now: number): number {
  const gap = 1000 / Math.max(ratePerSecond, 0.001)
  if (held.slot !== undefined && held.slot >= now - gap) return held.slot
  // Slots not taken lapse, but up to SLOTS_AT_ONCE of them may go together.
  held.slot = Math.max(now - (SLOTS_AT_ONCE - 1) * gap, q.nextSlot)
  q.nextSlot = held.slot + gap
  return held.slot
}

export interface TurnAsk {
  key: string
  tier: Tier
  /** The rule's answer (lease-rule.ts): 0 granted, else the soonest the calls could go. */
  ruleWaitMs: number
  /** Calls per second the tier's queue is served at now. */
  ratePerSecond: number
}

/**
 * How long the poller waits (0: it goes now). Granted, it gives its place up. Refused, it takes
 * the next place in its tier's queue, even when refused on its turn (a booking or a release took
 * the window's room meanwhile): kept at the front, those refused together came back together and
 * crowded the turns behind them, and a third of the turns were refused.
 */
export function nextTurn(turns: Turns, ask: TurnAsk, now: number): number {
  const { key, tier, ruleWaitMs, ratePerSecond } = ask
  if (ruleWaitMs === 0) {
    turns.held.delete(key)
    return 0
  }
  const q = queueAt(turns, tier, ratePerSecond, now)
  q.issued += 1
  turns.held.set(key, { tier, place: q.issued, askedAt: now })
  return Math.max(1, ruleWaitMs, waitFor(q.issued, q, ratePerSecond))
}
