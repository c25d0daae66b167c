// Booking one matching slot for an approved auto_book request, and verifying it against the
// user's platform account. Safety first: the attempt is persisted (status
// awaiting_verification) before the book call, so no crash or repeated alarm can book twice;
// a reservation counts only once the account shows it. Every state change is a patch applied
// to the state as stored at that moment, so a stop or update during a network wait wins.
import { claimedByOtherRequests, recordReservation } from '../../db/reservations'
import { notifyUser } from '../../notifications/notify'
import type { BookOutcome, PlatformReservation } from '../../platform/api'
import { markReauthRequired, platformSessionOf } from '../connection'
import type { BookingAttempt, RequestState } from '../state'
import { bookedAlert, reconnectAlert, tableFoundAlert, unverifiedAlert, type VenueInfo } from './alerts'
import { decideBooking } from './booking-decision'
import { type WatchContext, withTrace } from './context'
import { slotKey } from './match'
import type { Sighting } from './poll'
import { tableHeldForDinner } from './rules'

/** How long an unknown outcome is verified on later alarms before the request stops booking. */
export const VERIFY_WINDOW_MS = 10 * 60 * 1000
export const VERIFY_INTERVAL_MS = 20_000

const sameTable = (a: BookingAttempt) => (r: PlatformReservation) =>
  r.venueId === a.venueId && r.day === a.day && r.time === a.time && r.partySize === a.partySize

const isAttempt = (a: BookingAttempt) => (s: RequestState) => s.attempt?.createdAt === a.createdAt && s.attempt.slotKey === a.slotKey

const bump = (s: RequestState, now: number) => Math.max(now, s.updatedAt + 1)

async function reauth(ctx: WatchContext, userId: string): Promise<void> {
  ctx.forgetIndexFacts()
  const connectedAt = await markReauthRequired(ctx.deps, userId)
  if (connectedAt !== null) await notifyUser(ctx.deps, reconnectAlert(userId, connectedAt), ctx.background)
}

/** Alerts the user instead of booking (once per slot), with the reason in the trace. */
export async function alertInstead(ctx: WatchContext, sighting: Sighting, venue: VenueInfo | undefined, why: string | undefined) {
  const key = slotKey(sighting.slot)
  const state = await ctx.load()
  if (!state || state.alerted.includes(key)) return
  await notifyUser(ctx.deps, tableFoundAlert(state, sighting.slot, venue, why), ctx.background)
  const { slot } = sighting
  const message = why
    ? `slot ${slot.day} ${slot.time} ${slot.seatingType} skipped: ${why}; the user was alerted.`
    : `Alerted the user: ${venue?.name ?? `venue ${slot.venueId}`} ${slot.day} ${slot.time} (${slot.seatingType}).`
  await ctx.update((s) =>
    s.alerted.includes(key) ? null : withTrace({ ...s, alerted: [...s.alerted, key].slice(-500) }, ctx.deps.now, message),
  )
}

/** Returns true when a booking was submitted (and the request is now being verified). */
export async function tryBooking(
  ctx: WatchContext,
  start: RequestState,
  sighting: Sighting,
  venue: VenueInfo | undefined,
): Promise<boolean> {
  const { deps } = ctx
  const { slot } = sighting
  const session = await platformSessionOf(deps, start.userId)
  if (!session) {
    await alertInstead(ctx, sighting, venue, 'the platform account needs reconnecting')
    return false
  }
  const details = await deps.platform.bookingDetails(session.authToken, {
    configId: slot.configId,
    day: slot.day,
    partySize: start.spec.party_size,
  })
  if (details.kind === 'reauth') await reauth(ctx, start.userId)
  if (details.kind === 'reauth') await alertInstead(ctx, sighting, venue, 'the platform account needs reconnecting')
  if (details.kind !== 'ok') return false // a passing failure: the next poll tries again
  const at = { day: slot.day, startsAt: sighting.startsAt, timeZone: start.spec.timezone }
  const decision = decideBooking({ terms: slot.terms, details: details.value, spec: start.spec, at, now: deps.now })
  if (decision.kind === 'alert') {
    await alertInstead(ctx, sighting, venue, decision.reason)
    return false
  }
  const before = await deps.platform.listReservations(session.authToken)
  if (before.kind !== 'ok') return false
  // E.g. the booking of a request stopped mid-verification landed: this dinner has its table.
  const held = tableHeldForDinner(start.spec, before.value)
  if (held) {
    await alertInstead(ctx, sighting, venue, `the platform account already holds a table for this dinner (${held.day} ${held.time})`)
    return false
  }

  const attempt: BookingAttempt = {
    slotKey: slotKey(slot),
    venueId: slot.venueId,
    venueName: venue?.name ?? `venue ${slot.venueId}`,
    day: slot.day,
    time: slot.time,
    partySize: start.spec.party_size,
    seatingType: slot.seatingType,
    startsAt: sighting.startsAt,
    revision: start.revision,
    cancellationFee: decision.feePerPerson,
    freeCancellationUntil: decision.freeCancellationUntil,
    preexisting: before.value.filter((r) => r.venueId === slot.venueId && r.day === slot.day).map((r) => r.reservationId),
    createdAt: deps.now,
    outcome: 'pending',
    refusal: null,
    platformReservationId: null,
    verifyUntil: deps.now + VERIFY_WINDOW_MS,
  }
  // The last gate before money can move: still active, the approved revision is the current
  // one (and the one this poll matched against), no attempt yet, booking not disabled.
  const submitted = await ctx.update((s) => {
    const approved = s.status === 'active' && s.approvedRevision === s.revision && s.revision === start.revision
    if (!approved || s.attempt || s.bookingDisabled) return null
    return withTrace(
      {
        ...s,
        status: 'awaiting_verification',
        attempt,
        statusReason: 'A booking was submitted; verifying it with the platform.',
        updatedAt: bump(s, deps.now),
      },
      deps.now,
      `Booking ${attempt.venueName} ${slot.day} ${slot.time} (${slot.seatingType}) for ${attempt.partySize}; cancellation fee ${attempt.cancellationFee ?? 0} per person.`,
    )
  })
  if (!isAttempt(attempt)(submitted)) return false

  const outcome = await deps.platform.book(session.authToken, {
    bookToken: details.value.bookToken,
    paymentMethodId: session.paymentMethodId,
  })
  if (outcome.kind === 'reauth') await reauth(ctx, start.userId)
  await ctx.update((s) => (isAttempt(attempt)(s) && s.attempt ? { ...s, attempt: answered(s.attempt, outcome) } : null))
  await verifyAttempt(ctx)
  return true
}

function answered(attempt: BookingAttempt, outcome: BookOutcome): BookingAttempt {
  switch (outcome.kind) {
    case 'booked':
      return { ...attempt, outcome: 'booked', platformReservationId: outcome.reservationId }
    case 'unknown':
      return { ...attempt, outcome: 'unknown' }
    case 'refused':
      return { ...attempt, outcome: 'refused', refusal: outcome.reason }
    case 'reauth':
    case 'rate_limited':
      // Refused before anything happened; verification still checks the account.
      return { ...attempt, outcome: 'refused', refusal: outcome.kind }
  }
}

/**
 * Looks for the attempted booking on the account. Found: a verified reservation (and
 * `confirmed`, unless the user stopped or revoked meanwhile). Refused and absent: watching
 * resumes. Unknown: keep looking until the window closes, then never book again.
 */
export async function verifyAttempt(ctx: WatchContext): Promise<void> {
  const { deps } = ctx
  const state = await ctx.load()
  const attempt = state?.attempt
  if (!state || !attempt) return
  const session = await platformSessionOf(deps, state.userId)
  const listed = session ? await deps.platform.listReservations(session.authToken) : null
  if (listed?.kind === 'reauth') await reauth(ctx, state.userId)
  // A table another request booked and recorded (one asked again after this one was stopped) is not ours.
  const claimed = listed?.kind === 'ok' ? await claimedByOtherRequests(deps.db, state.userId, state.id) : new Set<string>()
  const ours = (r: PlatformReservation) =>
    sameTable(attempt)(r) && !attempt.preexisting.includes(r.reservationId) && !claimed.has(r.reservationId)
  const found = listed?.kind === 'ok' ? listed.value.find(ours) : undefined
  if (found) {
    await recordReservation(deps.db, {
      requestId: state.id,
      userId: state.userId,
      principalId: state.principalId,
      venueId: attempt.venueId,
      date: attempt.day,
      time: attempt.time,
      partySize: attempt.partySize,
      seating: attempt.seatingType,
      startsAt: attempt.startsAt,
      platformReservationId: found.reservationId,
      cancellationFee: attempt.cancellationFee,
      cancellationDeadline: attempt.freeCancellationUntil,
      verified: true,
      createdAt: attempt.createdAt,
      verifiedAt: deps.now,
    })
    await notifyUser(deps, bookedAlert(state, attempt.venueName, attempt.day, attempt.time), ctx.background)
    await ctx.update((s) => (isAttempt(attempt)(s) ? confirmed(s, attempt, deps.now) : null))
    return
  }
  if (listed?.kind === 'ok' && attempt.outcome === 'refused') {
    const why = `The platform refused the booking (${attempt.refusal}) and nothing is on the account; watching again.`
    await ctx.update((s) => (isAttempt(attempt)(s) ? resumed(s, deps.now, why) : null))
    return
  }
  if (deps.now < attempt.verifyUntil) return // keep verifying on later alarms; never book meanwhile
  await notifyUser(deps, unverifiedAlert(state, attempt.venueName, attempt.day, attempt.time), ctx.background)
  const why = 'The booking could not be verified either way; check the platform account. This request will not book again.'
  await ctx.update((s) =>
    isAttempt(attempt)(s)
      ? resumed({ ...s, bookingDisabled: 'An earlier booking could not be verified; this request now only alerts.' }, deps.now, why)
      : null,
  )
}

function confirmed(s: RequestState, attempt: BookingAttempt, now: number): RequestState {
  const waiting = s.status === 'awaiting_verification'
  return withTrace(
    {
      ...s,
      attempt: null,
      status: waiting ? 'confirmed' : s.status,
      statusReason: waiting ? 'Booked and verified on the platform account.' : s.statusReason,
      updatedAt: bump(s, now),
    },
    now,
    `Verified on the platform account: ${attempt.venueName} ${attempt.day} ${attempt.time} for ${attempt.partySize}.`,
  )
}

/** Back to watching (or expired) after an attempt that booked nothing. Stopped stays stopped. */
function resumed(s: RequestState, now: number, message: string): RequestState {
  const waiting = s.status === 'awaiting_verification'
  const status = !waiting ? s.status : now >= s.expiresAt ? 'expired' : 'active'
  return withTrace({ ...s, attempt: null, status, statusReason: waiting ? null : s.statusReason, updatedAt: bump(s, now) }, now, message)
}
