// The watching part of decide(), pure: subscribing to and leaving the availability objects, the
// user's platform connection, and checks that fail. The shapes of a decision step live in step.ts.

import { dayWhen } from '../alerts/alert-time'
import type { Recipient } from '../alerts/notice'
import { venueDaysOf } from '../watching/schedule'
import type { BookingState } from './booking-state'
import { availabilityName, type Effect, type RequestEvent, type VenueDay } from './events'
import { type Change, isOpen, type RequestState, transition } from './state'
import { type Decided, stateOnly } from './step'
import { type Blocked, blockedUntil, checkFailing, leftAll, subscribed, type WatchState } from './watch-state'

export const CONNECTION_WAIT_MS = 5 * 60 * 1000

const WAITING_FOR = {
  no_connection: 'Waiting: connect a reservation platform account in Settings to start watching.',
  reauth: 'Waiting: the reservation platform account needs reconnecting in Settings.',
  device_offline: 'Paused: your paired device is offline. Watching resumes when it reconnects (or turn on the cloud fallback in Settings).',
} as const

/** Watching goes on without the platform sign-in; only booking waits for it. */
const BOOKING_WAITS_FOR_RECONNECT =
  'Watching; booking waits: the platform sign-in ended or was refused. Reconnect it in Settings and booking resumes.'

function venueDayOf(key: string): VenueDay {
  const [venueId = '0', day = '', partySize = '0'] = key.split(':')
  return { venueId: Number(venueId), day, partySize: Number(partySize) }
}

interface WatchChange {
  patch: NonNullable<Change['patch']>
  effects: Effect[]
}

/** Subscribe to every venue-day still ahead; subscribing again replaces the filter and plan. */
export function startWatching(state: RequestState, now: number): WatchChange {
  const venueDays = venueDaysOf(state.spec, now)
  const patch = subscribed(venueDays.map(availabilityName))
  if (venueDays.length === 0) return { patch, effects: [] }
  const target = { requestId: state.id, userId: state.userId, spec: state.spec, expiresAt: state.expiresAt, venueDays }
  return { patch, effects: [{ kind: 'subscribe', target }] }
}

/** Leave every venue-day watched now, except those in `keep` (about to be subscribed again). */
export function stopWatching(state: RequestState, keep: readonly string[] = []): WatchChange {
  const leaving = state.watching.filter((key) => !keep.includes(key))
  const patch = leftAll()
  if (leaving.length === 0) return { patch, effects: [] }
  return { patch, effects: [{ kind: 'unsubscribe', requestId: state.id, userId: state.userId, venueDays: leaving.map(venueDayOf) }] }
}

/** An active request's status reason follows from why it is not watching, why booking waits, or which checks fail. */
export function activeReason(
  state: Pick<WatchState, 'blocked' | 'failingChecks'> & Partial<Pick<BookingState, 'reconnectToBook'>>,
): string | null {
  if (state.blocked) return WAITING_FOR[state.blocked.reason]
  if (state.reconnectToBook) return BOOKING_WAITS_FOR_RECONNECT
  return Object.values(state.failingChecks).find((reason) => reason !== null) ?? null
}

export function reconnectNotice(state: RequestState, connectedAt: number | null): Effect[] {
  if (connectedAt === null) return []
  return [{ kind: 'notify', to: recipientOf(state), notice: { type: 'reconnect', connectedAt } }]
}

/** The request ended without a table (expired or revoked): the user hears why. */
export function endedNotice(state: RequestState, status: 'expired' | 'revoked', reason: string): Effect {
  return { kind: 'notify', to: recipientOf(state), notice: { type: 'ended', status, reason } }
}

/** An auto_book revision waits for the user: they get the approval link. */
export function approvalNotice(state: RequestState): Effect {
  return {
    kind: 'notify',
    to: recipientOf(state),
    notice: { type: 'approval_needed', revision: state.revision, expiresAt: state.expiresAt, timeZone: state.spec.timezone },
  }
}

export const recipientOf = (state: RequestState): Recipient => ({
  requestId: state.id,
  userId: state.userId,
  partySize: state.spec.party_size,
  timeZone: state.spec.timezone,
  dinner: {
    title: state.spec.title ?? null,
    venueIds: state.spec.venue_ids,
    dates: state.spec.dates,
    earliest: state.spec.earliest_time,
    latest: state.spec.latest_time,
  },
})

/**
 * Without a working platform connection the service does not check availability (the
 * contract): an active request leaves its venue-days and waits; connecting wakes it.
 */
export function watchConnection(state: RequestState, event: Extract<RequestEvent, { kind: 'connection' }>, now: number): Decided {
  const notice = reconnectNotice(state, event.reconnectNotice)
  // The user reconnected (or anything else that may let booking work woke the request): the
  // tables told "reconnect to book" are tried again. A subscription's own answer is no such news.
  if (event.state === 'ok' && !event.subscribed && state.reconnectToBook !== null) return bookingResumes(state, now)
  if (state.status !== 'active') return { state, effects: notice }
  if (event.state === 'ok') {
    if (!state.blocked && event.rewatch) {
      const watch = startWatching(state, now)
      const where = event.rewatch === 'user_device' ? 'on your paired device' : 'in the cloud'
      return {
        state: transition(state, { trace: `Checks and booking now run ${where}.`, patch: watch.patch }, now),
        effects: watch.effects,
      }
    }
    if (!state.blocked) return stateOnly(state)
    const watch = event.subscribed
      ? { patch: subscribed(venueDaysOf(state.spec, now).map(availabilityName)), effects: [] }
      : startWatching(state, now)
    const message =
      state.blocked.reason === 'device_offline'
        ? 'The paired device is connected again; watching for tables.'
        : 'The platform account is connected; watching for tables.'
    const reason = activeReason({ ...state, blocked: null, failingChecks: {} })
    return { state: transition(state, { reason, trace: message, patch: watch.patch }, now), effects: watch.effects }
  }
  const reason: Blocked['reason'] = event.state === 'missing' ? 'no_connection' : event.state
  const blocked = blockedUntil(reason, now + CONNECTION_WAIT_MS)
  const watch = stopWatching(state)
  const why = activeReason({ blocked, failingChecks: {} })
  const next = transition(
    state,
    { reason: why, trace: state.statusReason === why ? [] : (why ?? []), patch: { ...watch.patch, blocked } },
    now,
  )
  return { state: next, effects: [...watch.effects, ...notice] }
}

/**
 * Booking no longer waits for a reconnect: the tables told "reconnect to book" may be tried again,
 * and an active request subscribes again, so the availability objects deliver the matching tables
 * still open (the earliest is tried first, after the usual checks of the account).
 */
function bookingResumes(state: RequestState, now: number): Decided {
  const again = new Set(state.reconnectToBook)
  const patch = { reconnectToBook: null, alerted: state.alerted.filter((key) => !again.has(key)) }
  if (state.status !== 'active') return stateOnly(transition(state, { patch }, now))
  const watch = startWatching(state, now)
  const reason = activeReason({ ...state, ...watch.patch, reconnectToBook: null })
  const trace = 'The platform account is connected again; booking resumes, the tables told meanwhile included.'
  return { state: transition(state, { reason, trace, patch: { ...patch, ...watch.patch } }, now), effects: watch.effects }
}

/** An availability object's checks fail (or work again): shown as the status reason while watching. */
export function watchCheckFailed(state: RequestState, event: Extract<RequestEvent, { kind: 'checks' }>, now: number): Decided {
  const key = availabilityName(event.venueDay)
  if (!state.watching.includes(key)) return { ...stateOnly(state), reply: { watching: false } }
  // Sent when checks start failing, fail differently, or work again: only "work again" can be stale.
  if (!event.problem && !(key in state.failingChecks)) return { ...stateOnly(state), reply: { watching: true } }
  const where = `${event.venueName} on ${dayWhen(event.venueDay.day)}`
  // A block or a refused key pauses watching: a health notice (the user may want to act).
  const health: Effect[] =
    event.problem?.reason && isOpen(state.status)
      ? [
          {
            kind: 'notify',
            to: recipientOf(state),
            notice: { type: 'checks_blocked', venueName: event.venueName, day: event.venueDay.day, says: event.problem.says, at: now },
          },
        ]
      : []
  const text = event.problem ? `Could not check ${where}: ${event.problem.says}.` : `Checks of ${where} work again.`
  const failingChecks = checkFailing(state.failingChecks, key, event.problem)
  const reason = state.status === 'active' ? activeReason({ ...state, failingChecks }) : undefined
  return { state: transition(state, { reason, trace: text, patch: { failingChecks } }, now), effects: health, reply: { watching: true } }
}
