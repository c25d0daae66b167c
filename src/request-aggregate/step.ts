// The vocabulary of one decision step, below every decide file so that none of them imports
// another in a loop: what a step gives back (Decided), what decide() returns to the Durable
// Object (Decision) and the answer for the caller (Reply).
import type { Effect } from './events'
import type { Refusal, RequestState } from './state'

export interface Reply {
  refusal?: Refusal
  replayed?: boolean
  /** To an availability object: false drops this subscriber. */
  watching?: boolean
  /** To an availability object: deliver the current matching slots again at the next poll. */
  redeliver?: boolean
}

export interface Decision {
  state: RequestState
  effects: Effect[]
  /** When the request's own alarm should fire: expiry, verification, a connection retry; null for none. */
  alarmAt: number | null
  reply: Reply
}

/** One step of decide() before the index mirror and the alarm are added. */
export interface Decided {
  state: RequestState
  effects: Effect[]
  reply?: Reply
}

/** A step with no effects (the state may or may not have changed). */
export const stateOnly = (state: RequestState): Decided => ({ state, effects: [] })
