// The diner switches a request between "alert me" and "book for me" on its page, pure. Switching
// to booking is the diner's approval of the exact spec the page showed (its revision), as the
// approval link is: a new revision, approved, active. Switching back stops booking at once: a
// new revision in alert_only, unapproved, still watching. An assistant cannot reach this (no API
// route or tool does); a booking being verified, or a closed request, refuses it.
import { startWatching, stopWatching } from './decide-watch'
import type { RequestEvent } from './events'
import { type RequestState, refuseUpdate, transition } from './state'
import { type Decided, stateOnly } from './step'

export function dinerMode(state: RequestState, event: Extract<RequestEvent, { kind: 'diner_mode' }>, now: number): Decided {
  const refusal = refuseUpdate(state, event.revision)
  if (refusal) return { ...stateOnly(state), reply: { refusal } }
  const toBook = event.mode === 'auto_book'
  const already = state.spec.mode === event.mode && (!toBook || state.approvedRevision === state.revision)
  if (already && state.status === 'active') return stateOnly(state)
  const revision = state.revision + 1
  const spec = { ...state.spec, mode: event.mode }
  // Subscribing again replaces the filter and the plan (and delivers the matching slots again).
  const started = startWatching({ ...state, spec }, now)
  const stopped = stopWatching(state, started.patch.watching)
  const trace = toBook
    ? `Switched to "book for me" by the user, who approved revision ${revision} on its page; it books the first table that fits, within its limits.`
    : `Switched to "alert me" by the user (revision ${revision}); nothing is booked from now on.`
  const next = transition(
    state,
    {
      to: 'active',
      reason: null,
      trace,
      patch: { spec, revision, approvedRevision: toBook ? revision : null, ...stopped.patch, ...started.patch },
    },
    now,
  )
  return { state: next, effects: [...stopped.effects, ...started.effects] }
}
