// The effects that reach the user's platform account, through the route the step chose
// (executors/account-step.ts): the checks before booking, the book call, and the verification.
// The rules that decide whether to book stay in decide(); these only fetch and book.
import { claimedByOtherRequests, claimReservation } from '../../db/reservations'
import { deviceReservations, onDevice } from '../../executors/account-route'
import type { DetailsQuery } from '../../platform/api'
import type { Deps } from '../../runtime/deps'
import { budget } from '../../watching/limits'
import { ourReservation } from '../booking/booking-rules'
import type { OfferAnswer, RequestEvent, VerifyAnswer } from '../events'
import type { EffectOf, EffectStep } from './context'

/** Calls a booking makes with the user's token: details, the account's reservations, book. */
const BOOKING_CALLS = 3

export async function checkOffer(step: EffectStep, effect: EffectOf<'check_offer'>): Promise<RequestEvent[]> {
  const answer = await offerAnswer(step, effect)
  return [{ kind: 'offer_checked', offer: effect.offer, answer }]
}

export async function book({ d, routeOf, sessionOf, rejected }: EffectStep, effect: EffectOf<'book'>): Promise<RequestEvent[]> {
  const { attempt } = effect
  const { route } = await routeOf(d, effect.userId)
  if (route !== 'cloud') {
    // One work id per attempt: asking again returns the device's answer, never a second booking.
    const answer =
      route === 'device'
        ? await onDevice(d, effect.userId, `book:${attempt.createdAt}:${attempt.slotKey}`, {
            op: 'book',
            bookToken: effect.bookToken,
            card: attempt.needsCard,
          })
        : null
    const outcome = answer ?? ({ kind: 'unknown', detail: 'the paired device did not answer' } as const)
    return [{ kind: 'booking_answer', attemptAt: attempt.createdAt, outcome, reconnectNotice: null }]
  }
  const session = await sessionOf(d, effect.userId)
  const outcome = session
    ? await d.platform.book(session.authToken(), {
        bookToken: effect.bookToken,
        // The card only where the table holds one (§11; `Cierge:resy/book.go`).
        paymentMethodId: attempt.needsCard ? session.paymentMethodId : null,
      })
    : ({ kind: 'reauth' } as const)
  // Book is never repeated: a rejected token is renewed for the next attempt; the user is
  // asked to reconnect only when the platform refuses the refresh too.
  const refused = outcome.kind === 'reauth' && session && (await session.renewAfterRejection()).kind === 'refused'
  const reconnectNotice = refused ? await rejected(d, effect.userId) : null
  return [{ kind: 'booking_answer', attemptAt: attempt.createdAt, outcome, reconnectNotice }]
}

export async function verify(step: EffectStep, effect: EffectOf<'verify'>): Promise<RequestEvent[]> {
  return [{ kind: 'verification_answer', attemptAt: effect.attempt.createdAt, answer: await verifyAnswer(step, effect) }]
}

async function offerAnswer({ d, env, routeOf, sessionOf, rejected }: EffectStep, effect: EffectOf<'check_offer'>): Promise<OfferAnswer> {
  const { slot } = effect.offer
  const { route } = await routeOf(d, effect.userId)
  if (route === 'offline') return { kind: 'unavailable', detail: 'the paired device is offline' }
  const [session, wait] = await Promise.all([
    route === 'cloud' ? sessionOf(d, effect.userId) : null,
    budget(env, `account:${effect.userId}`, BOOKING_CALLS),
  ])
  if (route === 'cloud' && !session) return { kind: 'no_connection', reconnectNotice: null }
  if (wait > 0) return { kind: 'busy' }
  const query = { configId: slot.configId, day: slot.day, partySize: effect.spec.party_size }
  // Reads renew a rejected token once; `reauth` means the platform refused the refresh too.
  const [details, listed] = session
    ? await Promise.all([
        session.read((authToken) => d.platform.bookingDetails(authToken, query)),
        session.read((authToken) => d.platform.listReservations(authToken)),
      ])
    : await onDeviceBoth(d, effect.userId, `offer:${slotKeyOf(effect)}:${d.now}`, query)
  if (!details || !listed) return { kind: 'unavailable', detail: 'the paired device did not answer' }
  if (!session && (details.kind === 'reauth' || listed.kind === 'reauth')) {
    // The device's own sign-in was refused: only the user can fix it, on the device.
    return { kind: 'unavailable', detail: 'the platform refused the paired device’s sign-in' }
  }
  if (details.kind === 'reauth' || listed.kind === 'reauth') {
    return { kind: 'no_connection', reconnectNotice: await rejected(d, effect.userId) }
  }
  if (details.kind === 'not_found') return { kind: 'gone' }
  if (details.kind !== 'ok') return { kind: 'unavailable', detail: details.kind }
  if (listed.kind !== 'ok') return { kind: 'unavailable', detail: `reservations: ${listed.kind}` }
  return { kind: 'ok', details: details.value, held: listed.value }
}

/** Looks for the attempted booking on the account; records it (once per request) when it is there. */
async function verifyAnswer({ d, routeOf, sessionOf, rejected }: EffectStep, effect: EffectOf<'verify'>): Promise<VerifyAnswer> {
  const { request, attempt } = effect
  // Not capped: one look per 20 s per attempt, and a booking that landed must always be found.
  // A device's booking is looked for through the device, else with the cloud token if the
  // user has one (reading the account never books).
  const { route } = await routeOf(d, request.userId)
  const viaDevice = route === 'cloud' ? null : await deviceReservations(d, request.userId, `verify:${attempt.createdAt}:${d.now}`)
  const session = viaDevice?.kind === 'ok' ? null : await sessionOf(d, request.userId)
  if (!viaDevice && !session) return { kind: 'unreadable', reconnectNotice: null }
  const listed =
    viaDevice?.kind === 'ok' || !session
      ? (viaDevice ?? { kind: 'unavailable', detail: '' })
      : await session.read((authToken) => d.platform.listReservations(authToken))
  if (listed.kind === 'reauth') return { kind: 'unreadable', reconnectNotice: await rejected(d, request.userId) }
  if (listed.kind !== 'ok') return { kind: 'unreadable', reconnectNotice: null }
  // A table another request booked and recorded (one asked again after this one was stopped) is not ours.
  const found = ourReservation(attempt, listed.value, await claimedByOtherRequests(d.db, request.userId, request.id))
  if (!found) return { kind: 'absent' }
  const ours = await claimReservation(d.db, {
    requestId: request.id,
    userId: request.userId,
    principalId: request.principalId,
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
    verifiedAt: d.now,
  })
  // Another request of the user claimed it between the read above and this insert.
  if (!ours) return { kind: 'absent' }
  return { kind: 'found', reservationId: found.reservationId }
}

const slotKeyOf = (effect: EffectOf<'check_offer'>) => `${effect.offer.slot.configId}:${effect.offer.revision}`

/** Booking details and the account's reservations through the device, as two work items. */
function onDeviceBoth(d: Deps, userId: string, id: string, query: DetailsQuery) {
  return Promise.all([onDevice(d, userId, `${id}:details`, { op: 'details', query }), deviceReservations(d, userId, `${id}:reservations`)])
}
