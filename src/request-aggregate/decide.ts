// A request's life as one pure decision: decide(state, event, now) → the next state, the effects
// to carry out (plain data, events.ts), when the request's alarm should fire, and the answer for
// the caller. The Durable Object only loads, decides, persists, runs the effects and arms the
// alarm. Booking and verification are in decide-booking.ts, watching in decide-watch.ts.

import { digestAlarm } from '../alerts/digest'
import { decideBookingEvent } from './decide-booking'
import { digestAnswered, flushDigest } from './decide-digest'
import { dinerMode } from './decide-mode'
import { pressOfferChecked, pressTable, withPressVerified } from './decide-press'
import {
  approvalNotice,
  CONNECTION_WAIT_MS,
  endedNotice,
  recipientOf,
  startWatching,
  stopWatching,
  watchCheckFailed,
  watchConnection,
} from './decide-watch'
import type { RequestEvent, UpdateKey } from './events'
import { isOpen, keyConflict, type RequestState, refuseApproval, refuseStop, refuseUpdate, sameSpec, transition } from './state'
import { type Decided, type Decision, type Reply, stateOnly } from './step'
import { blockedUntil } from './watch-state'

const UPDATE_KEY_TTL_MS = 24 * 60 * 60 * 1000

export function decide(state: RequestState, event: RequestEvent, now: number): Decision {
  const decided = decideEvent(state, event, now)
  return finish(state, decided)
}

function decideEvent(state: RequestState, event: RequestEvent, now: number): Decided {
  switch (event.kind) {
    case 'created':
      return created(state, now)
    case 'approve':
      return approve(state, event.revision, now)
    case 'update':
      return update(state, event, now)
    case 'stop':
      return stop(state, now)
    case 'revoke':
      return isOpen(state.status) ? revoke(state, event.reason, now) : stateOnly(state)
    case 'transfer_owner':
      return transferOwner(state, event, now)
    case 'alarm':
      return flushDigest(alarm(state, now), now)
    case 'digest_sent':
      return digestAnswered(state, event, now)
    case 'connection':
      return watchConnection(state, event, now)
    case 'checks':
      return watchCheckFailed(state, event, now)
    case 'press':
      return pressTable(state, event, now)
    case 'diner_mode':
      return dinerMode(state, event, now)
    case 'offer_checked':
      if (event.offer.pressed) return flushDigest(pressOfferChecked(state, event, now), now)
      return flushDigest(decideBookingEvent(state, event, now), now)
    case 'verification_answer':
      return flushDigest(withPressVerified(state, event, decideBookingEvent(state, event, now), now), now)
    case 'slots_seen':
    case 'booking_answer':
      // A digest with nothing to gather (one venue-day watched) goes in the same step, not on an alarm.
      return flushDigest(decideBookingEvent(state, event, now), now)
  }
}

/** Adds the index mirror when a field the index holds changed, and the alarm time. */
function finish(before: RequestState, decided: Decided): Decision {
  const { state } = decided
  const effects = [...decided.effects]
  const specChanged = !sameSpec(before.spec, state.spec)
  const indexed =
    specChanged || before.status !== state.status || before.revision !== state.revision || before.expiresAt !== state.expiresAt
  if (indexed) {
    const { id, status, revision, spec, expiresAt, updatedAt } = state
    effects.push({ kind: 'mirror', row: { id, status, revision, spec, expiresAt, updatedAt }, specChanged })
  }
  return { state, effects, alarmAt: alarmFor(state), reply: decided.reply ?? {} }
}

/** Expiry of an open request, the next look at a booking being verified, a connection retry. */
export function alarmFor(state: RequestState): number | null {
  const times: number[] = []
  if (state.attempt) times.push(state.attempt.checkAt)
  else if (isOpen(state.status)) times.push(state.expiresAt)
  if (state.unsettled) times.push(state.unsettled.checkAt)
  const warnAt = expiryWarningAt(state)
  if (warnAt !== null) times.push(warnAt)
  const digestAt = isOpen(state.status) ? digestAlarm(state) : null
  if (digestAt !== null) times.push(digestAt)
  if (state.blocked && state.status === 'active') times.push(state.blocked.retryAt)
  return times.length > 0 ? Math.min(...times) : null
}

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * When an unapproved request warns that it expires in a day: once per expiry time, and only
 * for a request created more than a day before it expires (else the approval notice said it).
 */
function expiryWarningAt(state: RequestState): number | null {
  if (state.status !== 'needs_approval' || state.expiryWarned === state.expiresAt) return null
  const at = state.expiresAt - DAY_MS
  return at > state.createdAt ? at : null
}

function created(state: RequestState, now: number): Decided {
  // "Created" is always the first line of the trace: a request is created once.
  if (state.trace.length > 0) return stateOnly(state)
  if (state.status !== 'active') {
    const next = transition(state, { trace: 'Created; waiting for the user to approve it.' }, now)
    return { state: next, effects: [approvalNotice(next)] }
  }
  const watch = startWatching(state, now)
  return { state: transition(state, { trace: 'Created; watching for tables.', patch: watch.patch }, now), effects: watch.effects }
}

function approve(state: RequestState, revision: number, now: number): Decided {
  const refusal = refuseApproval(state, revision)
  if (refusal) return { ...stateOnly(state), reply: { refusal } }
  const watch = startWatching(state, now)
  const next = transition(
    state,
    {
      to: 'active',
      reason: null,
      trace: `Approved revision ${revision} by the user; watching for tables.`,
      patch: { approvedRevision: revision, ...watch.patch },
    },
    now,
  )
  return { state: next, effects: watch.effects }
}

const liveKeys = (state: RequestState, now: number) =>
  Object.fromEntries(Object.entries(state.updateKeys).filter(([, v]) => now - v.at < UPDATE_KEY_TTL_MS))

/** An update with this Idempotency-Key was accepted before: a replay (same body) or a conflict. */
export function earlierUpdate(state: RequestState, idem: UpdateKey, now: number): Reply | null {
  const earlier = liveKeys(state, now)[idem.key]
  if (!earlier) return null
  return earlier.bodyHash === idem.bodyHash ? { replayed: true } : { refusal: keyConflict }
}

function update(state: RequestState, event: Extract<RequestEvent, { kind: 'update' }>, now: number): Decided {
  const earlier = earlierUpdate(state, event.idem, now)
  if (earlier) return { ...stateOnly(state), reply: earlier }
  const keys = liveKeys(state, now)
  const refusal = refuseUpdate(state, event.revision)
  if (refusal) return { ...stateOnly(state), reply: { refusal } }
  const updateKeys = { ...keys, [event.idem.key]: { bodyHash: event.idem.bodyHash, at: now } }
  if (sameSpec(state.spec, event.spec)) return stateOnly(transition(state, { patch: { updateKeys } }, now))

  // design.md: an update to or of auto_book needs the user's approval again, even when it
  // switches to alert_only, so an assistant cannot quietly rewrite what the user approved.
  const needsApproval = event.spec.mode === 'auto_book' || state.spec.mode === 'auto_book'
  const revision = state.revision + 1
  const started = needsApproval ? null : startWatching({ ...state, spec: event.spec, expiresAt: event.expiresAt }, now)
  // Subscribing again replaces the filter and the plan (and delivers the matching slots again).
  const stopped = stopWatching(state, started?.patch.watching)
  const next = transition(
    state,
    {
      to: needsApproval ? 'needs_approval' : 'active',
      reason: needsApproval ? 'The request changed; the user must approve the new revision.' : null,
      trace: `Updated to revision ${revision}${needsApproval ? '; waiting for approval' : ''}.`,
      patch: {
        spec: event.spec,
        expiresAt: event.expiresAt,
        revision,
        approvedRevision: null,
        updateKeys,
        ...stopped.patch,
        ...started?.patch,
      },
    },
    now,
  )
  const asked = needsApproval ? [approvalNotice(next)] : []
  return { state: next, effects: [...stopped.effects, ...(started?.effects ?? []), ...asked] }
}

function stop(state: RequestState, now: number): Decided {
  const refusal = refuseStop(state)
  if (refusal) return { ...stateOnly(state), reply: { refusal } }
  if (state.status === 'stopped') return stateOnly(state)
  return close(state, 'stopped', 'Stopped; monitoring ended. Any reservation still stands.', now)
}

/** Stop or revoke: watching ends at once; a booking in flight is still verified (and recorded if it landed). */
function close(state: RequestState, to: 'stopped' | 'revoked', reason: string, now: number): Decided {
  const watch = stopWatching(state)
  return { state: transition(state, { to, reason, trace: reason, patch: watch.patch }, now), effects: watch.effects }
}

function revoke(state: RequestState, reason: string, now: number): Decided {
  const closed = close(state, 'revoked', reason, now)
  return { ...closed, effects: [...closed.effects, endedNotice(state, 'revoked', reason)] }
}

function transferOwner(state: RequestState, event: Extract<RequestEvent, { kind: 'transfer_owner' }>, now: number): Decided {
  if (!event.from.includes(state.principalId)) return stateOnly(state)
  const trace = isOpen(state.status) ? 'The assistant reconnected; the request carries on under its new connection.' : []
  return stateOnly(transition(state, { trace, patch: { principalId: event.to } }, now))
}

function alarm(state: RequestState, now: number): Decided {
  const request = { id: state.id, userId: state.userId, principalId: state.principalId }
  if (state.attempt) {
    // A stopped or revoked request still verifies a booking that may have landed.
    return { ...stateOnly(state), effects: [{ kind: 'verify', request, attempt: state.attempt }] }
  }
  const step = timeAlarm(state, now)
  // An attempt whose window closed unread is looked for at every alarm, whatever the status.
  const unsettled = state.unsettled
  return unsettled ? { ...step, effects: [...step.effects, { kind: 'verify', request, attempt: unsettled }] } : step
}

/** The alarm's work that depends on the time: expiry, the expiry warning, the connection retry. */
function timeAlarm(state: RequestState, now: number): Decided {
  if (isOpen(state.status) && now >= state.expiresAt) {
    const reason =
      state.status === 'needs_approval' ? 'Expired before it was approved; nothing was watched.' : 'Expired; nothing was booked.'
    const watch = stopWatching(state)
    const next = transition(state, { to: 'expired', reason, trace: reason, patch: watch.patch }, now)
    return { state: next, effects: [...watch.effects, endedNotice(state, 'expired', reason)] }
  }
  const warnAt = expiryWarningAt(state)
  if (warnAt !== null && now >= warnAt) {
    const notice = { type: 'expires_soon', revision: state.revision, expiresAt: state.expiresAt, timeZone: state.spec.timezone } as const
    const next = transition(state, { patch: { expiryWarned: state.expiresAt } }, now)
    return { state: next, effects: [{ kind: 'notify', to: recipientOf(state), notice }] }
  }
  if (state.status !== 'active') return stateOnly(state)
  if (state.blocked && now >= state.blocked.retryAt) {
    // Look at the connection again: the subscribe effect answers with a connection event.
    const watch = startWatching(state, now)
    const blocked = blockedUntil(state.blocked.reason, now + CONNECTION_WAIT_MS)
    return { state: transition(state, { patch: { blocked } }, now), effects: watch.effects }
  }
  if (!state.blocked && state.watching.length === 0) {
    // Not subscribed although it should be (a state from before subscriptions): register now.
    const watch = startWatching(state, now)
    if (watch.effects.length > 0) return { state: transition(state, { patch: watch.patch }, now), effects: watch.effects }
  }
  return stateOnly(state)
}
