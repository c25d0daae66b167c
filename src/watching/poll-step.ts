// The availability object's pure core: given its pace, its subscribers and
// what this round's check gave, what happens next — when to check again, what to store, whom to
// tell of a failure (or that checks work again), and which slots to deliver. The object keeps
// load, call and store (availability-object.ts, beside it).
import type { Outcome, Slot } from '../platform/api'
import { backoffAfter, intervalAt, nextPollAt } from './cadence'
import type { CheckProblem } from './news'
import { readFailure, tellOfFailure } from './platform-failures'
import type { WatchPlan } from './schedule'
import type { Pace } from './subscribers'

/** A find's outcome, or `calendar_none`: the calendar pre-check said nothing is open (no find was made). */
export type PollOutcome = Outcome<Slot[]> | { kind: 'calendar_none' }

export interface PollStep {
  pace: Pace
  nextAt: number
  /** Tell every subscriber of this problem (or, with null, that checks work again); absent: tell nobody. */
  tell?: { problem: CheckProblem | null }
  /** Deliver these and remember them as seen; null: nothing to deliver (a failure, or the calendar's "none"). */
  slots: Slot[] | null
}

export interface PollContext {
  /** The last good check (for the pace kept while failing). */
  lastGood: number | null
  /** How much the budget stretches this venue-day's cadence now (src/budget/call-priority.ts); 1: as planned. */
  stretch?: number
}

export function decidePoll(
  pace: Pace,
  subscribers: readonly { plan: WatchPlan }[],
  outcome: PollOutcome,
  now: number,
  context: PollContext,
): PollStep {
  const plans = subscribers.map((s) => s.plan)
  const stretch = Math.max(1, context.stretch ?? 1)
  if (outcome.kind !== 'ok' && outcome.kind !== 'calendar_none') {
    const failures = (pace.failing?.failures ?? 0) + 1
    const reading = readFailure(outcome)
    const problem: CheckProblem = { says: reading.says, reason: reading.statusReason }
    const told = pace.failing && pace.failing.told !== false ? pace.failing.problem : null
    const tell = tellOfFailure(reading, failures, told)
    // A block or a refused key waits long (asking again keeps a block in place); anything else
    // doubles from the interval, so one 5xx does not end a release burst.
    const long = outcome.kind === 'blocked' || outcome.kind === 'operator_fault'
    const gap = plans.length > 0 ? Math.min(...plans.map((p) => intervalAt(p, now))) : 0
    const retryAfter = outcome.kind === 'rate_limited' ? outcome.retryAfterMs : 0
    return {
      pace: { offsetMs: null, checkedAt: context.lastGood, failing: { problem: problem.says, failures, told: tell || told !== null } },
      nextAt: now + (long ? reading.backoffMs : backoffAfter(failures, gap, retryAfter)),
      ...(tell ? { tell: { problem } } : {}),
      slots: null,
    }
  }
  const nextAt = now + Math.round((nextPollAt(plans, now) - now) * stretch)
  // Only a failure they were told of is told to have passed.
  const recovered = pace.failing !== null && pace.failing.told !== false
  return {
    pace: { offsetMs: nextAt - now, checkedAt: null, failing: null },
    nextAt,
    ...(recovered ? { tell: { problem: null } } : {}),
    slots: outcome.kind === 'ok' ? outcome.value : null,
  }
}
