// What a watch step may do: read and commit the request's state, ask the coalesced
// availability, and run work in the background. The request object provides it.
import type { FindQuery, Outcome, Slot } from '../../platform/api'
import type { Deps } from '../deps'
import type { RequestState, TraceItem } from '../state'
import { TRACE_LIMIT } from '../state'
import type { Cadence } from './cadence'
import type { IndexFacts } from './index-facts'

export interface WatchContext {
  deps: Deps
  cadence: Cadence
  /** The state as stored now: RPC calls (stop, update) may have changed it during a network wait. */
  load(): Promise<RequestState | null>
  /**
   * Applies a change to the state as stored now, atomically: `change` runs synchronously on the
   * current state (RPC calls such as stop may have changed it during a network wait) and
   * returns the next state, or null for no change. Persists storage, then the D1 index.
   */
  update(change: (current: RequestState) => RequestState | null): Promise<RequestState>
  availability(query: FindQuery, maxAgeMs: number): Promise<Outcome<Slot[]>>
  /** The user's connection and the request's venues from the index, kept a while (index-facts.ts). */
  indexFacts(userId: string, venueIds: number[]): Promise<IndexFacts>
  /** The platform rejected the user's token: the next poll reads the connection afresh. */
  forgetIndexFacts(): void
  background(work: Promise<unknown>): void
}

export function withTrace(state: RequestState, at: number, message: string): RequestState {
  const trace: TraceItem[] = [...state.trace, { at, message }].slice(-TRACE_LIMIT)
  return { ...state, trace }
}
