// A refused poller is told its turn, not a guess (issue 23: poll lag at 10,000 requests). Pure.
//
// When venue-days want far more calls than the budget has, most of them are refused at any one
// moment. Told "a random moment within the backlog", they came back about eight times for each
// call the budget could grant: at 10,000 requests, 9 alarm runs in 10 did nothing but ask again,
// 23 a second on one workerd, and every poll was late for it (poll lag p99 2.3 s). So each tier
// keeps a queue: a refused poller is given the next turn of its tier, the turns spaced at the
// rate its tier can get (its share of the budget, after the earlier tiers' demand and the later
// tiers' floors: call-priority.ts), and when its turn comes it is served. One refusal and one
// grant for each call, however long the queue.
import type { Tier } from './call-priority'

export interface Turns {
  /** Per tier: when its next turn starts (the last turn handed out, plus its spacing). */
  tails: Partial<Record<Tier, number>>
  /** When each poller holding a turn has it, by key. */
  held: Map<string, number>
}

export const emptyTurns = (): Turns => ({ tails: {}, held: new Map() })

/** A turn not taken this long after it came is forgotten (its poller stopped watching). */
export const TURN_KEPT_MS = 60_000

/** A turn counts as come this close to it: an alarm set for it fires at it or a little after. */
const EARLY_MS = 50

export type TurnState = { kind: 'none' } | { kind: 'due' } | { kind: 'ahead'; waitMs: number }

/**
 * Where a poller stands: no turn held, its turn has come, or it is still ahead. A key is one
 * call, whoever asks: the venue's calendar is asked for by its near and far dates alike, and
 * each waits for the turn the first was told (told a turn each, they handed out a turn in the
 * queue for every ask, and the queue ran minutes ahead of its callers).
 */
export function turnOf(turns: Turns, key: string, now: number): TurnState {
  for (const [k, at] of turns.held) if (at < now - TURN_KEPT_MS) turns.held.delete(k)
  const at = turns.held.get(key)
  if (at === undefined) return { kind: 'none' }
  return at <= now + EARLY_MS ? { kind: 'due' } : { kind: 'ahead', waitMs: at - now }
}

export interface TurnAsk {
  key: string
  tier: Tier
  /** The rule's answer (lease-rule.ts): 0 granted, else the soonest the calls could go. */
  ruleWaitMs: number
  /** Calls per second the tier can get: its turns are this far apart. */
  ratePerSecond: number
  /** The longest a poller is sent away (MAX_STRETCH of its intervals). */
  maxWaitMs: number
}

/**
 * How long the poller waits (0: it goes now). Granted, it gives its turn up. Refused, it joins
 * the end of its tier's queue, even when refused on its turn (a booking or a release took the
 * window's room meanwhile): kept at the front, those refused together came back together and
 * crowded the turns behind them, and a third of the turns were refused.
 */
export function nextTurn(turns: Turns, ask: TurnAsk, now: number): number {
  const { key, tier, ruleWaitMs } = ask
  if (ruleWaitMs === 0) {
    turns.held.delete(key)
    return 0
  }
  const soonest = now + Math.max(1, ruleWaitMs)
  const spacingMs = 1000 / Math.max(ask.ratePerSecond, 0.001)
  const tail = Math.max(soonest, turns.tails[tier] ?? 0)
  // Past the longest stretch, a poller takes a turn out of the queue's order (the window still
  // bounds every call): a far date is checked now and then however long the near dates' queue.
  const at = Math.min(tail, now + Math.max(ask.maxWaitMs, ruleWaitMs))
  if (at === tail) turns.tails[tier] = tail + spacingMs
  turns.held.set(key, at)
  return at - now
}
