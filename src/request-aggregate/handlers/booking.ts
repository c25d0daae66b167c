// The effects that reach the user's platform account, through the executor the step chose for
// the user (executors/account-step.ts): the checks before booking, the book call, and the
// verification. The rules that decide whether to book stay in decide(); these only fetch and book.
import { BOOKING_CALLS } from '../../budget/call-window'
import { claimedByOtherRequests, claimReservation } from '../../db/reservations'
import { findVenues } from '../../db/venues'
import { limiterWait } from '../../watching/limits'
import { ourReservation } from '../booking/booking-rules'
import type { OfferAnswer, RequestEvent, VerifyAnswer } from '../events'
import type { EffectOf, EffectStep } from './context'

export async function checkOffer(step: EffectStep, effect: EffectOf<'check_offer'>): Promise<RequestEvent[]> {
  const answer = await offerAnswer(step, effect)
  return [{ kind: 'offer_checked', offer: effect.offer, answer }]
}

export async function book({ accountOf }: EffectStep, effect: EffectOf<'book'>): Promise<RequestEvent[]> {
  const { attempt } = effect
  const account = await accountOf(effect.userId)
  const { outcome, reconnectNotice } = await account.book({
    bookToken: effect.bookToken,
    needsCard: attempt.needsCard,
    // One work id per book call of the attempt (the first, and the one with the card after a
    // card-on-file refusal): a device asked again returns its answer, never a second booking.
    workId: `book:${attempt.createdAt}:${attempt.slotKey}${attempt.retriedWithCard ? ':card' : ''}`,
  })
  return [{ kind: 'booking_answer', attemptAt: attempt.createdAt, outcome, reconnectNotice, bookToken: effect.bookToken }]
}

export async function verify(step: EffectStep, effect: EffectOf<'verify'>): Promise<RequestEvent[]> {
  return [{ kind: 'verification_answer', attemptAt: effect.attempt.createdAt, answer: await verifyAnswer(step, effect) }]
}

async function offerAnswer({ deps, env, accountOf }: EffectStep, effect: EffectOf<'check_offer'>): Promise<OfferAnswer> {
  const { slot } = effect.offer
  // A venue the service cannot book (the catalog knows it from the platform's venue data): no call at all.
  const [venue] = await findVenues(deps.db, [slot.venueId])
  if (venue?.bookingBlocker) return { kind: 'unbookable', blocker: venue.bookingBlocker }
  const account = await accountOf(effect.userId)
  const read = await account.readForOffer({
    query: { configId: slot.configId, day: slot.day, partySize: effect.spec.party_size },
    workId: `offer:${slotKeyOf(effect)}:${deps.now}`,
    requestId: effect.requestId,
    limiterWait: () => limiterWait(env, `account:${effect.userId}`, BOOKING_CALLS),
  })
  if (read.kind !== 'read') return read
  const { details, listed } = read
  if (details.kind === 'not_found') return { kind: 'gone' }
  if (details.kind !== 'ok') return { kind: 'unavailable', detail: details.kind }
  if (listed.kind !== 'ok') return { kind: 'unavailable', detail: `reservations: ${listed.kind}` }
  return { kind: 'ok', details: details.value, held: listed.value }
}

/** Looks for the attempted booking on the account; records it (once per request) when it is there. */
async function verifyAnswer({ deps, accountOf }: EffectStep, effect: EffectOf<'verify'>): Promise<VerifyAnswer> {
  const { request, attempt } = effect
  // Not capped: one look per 20 s per attempt, and a booking that landed must always be found.
  const account = await accountOf(request.userId)
  const listed = await account.reservations(`verify:${attempt.createdAt}:${deps.now}`)
  if (listed.kind !== 'ok') return listed
  // A table another request booked and recorded (one asked again after this one was stopped) is not ours.
  const found = ourReservation(attempt, listed.value, await claimedByOtherRequests(deps.db, request.userId, request.id))
  if (!found) return { kind: 'absent' }
  const ours = await claimReservation(deps.db, {
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
    verifiedAt: deps.now,
  })
  // Another request of the user claimed it between the read above and this insert.
  if (!ours) return { kind: 'absent' }
  return { kind: 'found', reservationId: found.reservationId }
}

const slotKeyOf = (effect: EffectOf<'check_offer'>) => `${effect.offer.slot.configId}:${effect.offer.revision}`
