// The booking part of decide(), pure: new matching slots (alert, or try to book), the platform's
// answers before booking, to the book call, and to verification. Safety first: the attempt and
// `awaiting_verification` are decided (and persisted) before the book effect runs, only for the
// approved current revision, once per request; a reservation counts only once the account shows it.

import { tableWhen } from '../alerts/alert-time'
import { addToDigest, feeWords } from '../alerts/digest'
import type { Table } from '../alerts/notice'
import { dollars } from '../lib/money'
import { instantOf } from '../lib/zoned-time'
import type { BookingDetails, PlatformReservation, Slot, SlotTerms } from '../platform/api'
import { judgeSlot, slotKey } from '../watching/match'
import { type BookingDecision, decideBooking } from './booking/booking-decision'
import { answered, DISPROOF_WINDOW_MS, disproved, tableHeldForDinner, withAbsentRead } from './booking/booking-rules'
import { blockerOf, blockerOfRefusal, blockerWhy, RECONNECT_TO_BOOK, refusalWhy, waitingForReconnect } from './booking/booking-waits'
import { CARD_ALREADY_SENT, cardOnFileRule, mayRetryWithCard } from './booking/card-on-file'
import { pressTermsOf } from './booking/press-terms'
import {
  attemptBooked,
  attemptBookedNothing,
  attemptSettled,
  attemptStarted,
  attemptUnsettled,
  attemptVerifying,
  type BookingAttempt,
  type BookingState,
  offerCheckOver,
  offerCheckStarted,
} from './booking-state'
import { activeReason, endedNotice, recipientOf, reconnectNotice, startWatching, stopWatching } from './decide-watch'
import { toldOf } from './digest-state'
import { availabilityName, type Effect, type Offer, type RequestEvent, type VerifyAnswer } from './events'
import { type PressableTable, pressableOf } from './press-state'
import type { Spec } from './spec'
import { type Change, type RequestState, transition } from './state'
import { type Decided, stateOnly } from './step'
import { heardAt } from './watch-state'

/** How long an unknown outcome is verified on later alarms before the request stops booking. */
const VERIFY_WINDOW_MS = 10 * 60 * 1000
const VERIFY_INTERVAL_MS = 20_000
/** How often an attempt whose window closed unread is looked for on the account (`unsettled`). */
const UNSETTLED_LOOK_MS = 5 * 60 * 1000
/** An offer check older than this died with its object: the next news may start another. */
const OFFER_CHECK_TIMEOUT_MS = 60_000

type BookingEvent = Extract<RequestEvent, { kind: 'slots_seen' | 'offer_checked' | 'booking_answer' | 'verification_answer' }>

export function decideBookingEvent(state: RequestState, event: BookingEvent, now: number): Decided {
  switch (event.kind) {
    case 'slots_seen':
      return slotsSeen(state, event, now)
    case 'offer_checked':
      return offerChecked(state, event, now)
    case 'booking_answer':
      return bookingAnswer(state, event, now)
    case 'verification_answer':
      return verificationAnswer(state, event, now)
  }
}

const mayBook = (s: RequestState) =>
  s.status === 'active' &&
  s.spec.mode === 'auto_book' &&
  s.approvedRevision === s.revision &&
  !s.attempt &&
  !s.unsettled &&
  !s.bookingDisabled

function slotsSeen(state: RequestState, event: Extract<BookingEvent, { kind: 'slots_seen' }>, now: number): Decided {
  const subscribed = state.watching.includes(availabilityName(event.venueDay))
  if (!subscribed || (state.status !== 'active' && state.status !== 'awaiting_verification')) {
    return { ...stateOnly(state), reply: { watching: false } }
  }
  // While a booking is verified nothing else is tried; watching again delivers the slots again.
  if (state.status !== 'active') return { ...stateOnly(state), reply: { watching: true } }
  const matching = event.slots
    .filter((s) => judgeSlot(state.spec, s).matches)
    .map((slot) => ({ slot, startsAt: instantOf(slot.startDate, slot.time, state.spec.timezone) }))
    .sort((a, b) => a.startsAt - b.startsAt)
  const fresh = matching.filter((m) => !state.alerted.includes(slotKey(m.slot)))
  const lastCheckedAt = heardAt(state, event.checkedAt)
  const venue = { venueName: event.venueName, venuePage: event.venuePage }
  if (!mayBook(state)) {
    // Alert only: a table told before that went and came back is told again, unless the user's gap holds it (the runner's).
    const back = matching.filter((m) => cameBack(state, slotKey(m.slot)))
    if (fresh.length === 0 && back.length === 0) return { ...stateOnly(state), reply: { watching: true } }
    const alerted = alertInstead(state, fresh, venue, null, now, { lastCheckedAt }, back)
    return { ...alerted, reply: { watching: true } }
  }
  const [first, ...rest] = fresh
  if (!first) return { ...stateOnly(state), reply: { watching: true } }
  // Tables booking cannot try now (booking/booking-waits.ts): told at once, no call made for them.
  const waits = waitFor(
    state,
    event.venueDay.venueId,
    fresh.map((f) => slotKey(f.slot)),
  )
  if (waits) {
    const alerted = alertInstead(state, fresh, venue, waits.why, now, { lastCheckedAt, ...waits.patch })
    return { ...withReason(alerted, now), reply: { watching: true } }
  }
  // One offer at a time: news that arrives meanwhile is delivered again at the next poll.
  if (state.checkingOffer !== null && now - state.checkingOffer < OFFER_CHECK_TIMEOUT_MS) {
    return { ...stateOnly(state), reply: { watching: true, redeliver: true } }
  }
  // Straight to the platform's details for the earliest matching slot; the rest follow if it fails.
  const offer: Offer = { slot: first.slot, startsAt: first.startsAt, ...venue, revision: state.revision, rest }
  return {
    state: transition(state, { patch: { lastCheckedAt, ...offerCheckStarted(now) } }, now),
    effects: [checkOffer(state, offer)],
    reply: { watching: true },
  }
}

const checkOffer = (state: RequestState, offer: Offer): Effect => ({
  kind: 'check_offer',
  userId: state.userId,
  spec: state.spec,
  offer,
  requestId: state.id,
})

/** Why these tables (of one venue) are told rather than tried: the venue cannot be booked by us, or booking waits for a reconnect. */
function waitFor(state: RequestState, venueId: number, keys: string[]): { why: string; patch: Partial<BookingState> } | null {
  const blocker = blockerOf(state, venueId)
  if (blocker) return { why: blockerWhy(blocker), patch: {} }
  if (state.reconnectToBook !== null) return { why: RECONNECT_TO_BOOK, patch: { reconnectToBook: waitingForReconnect(state, keys) } }
  return null
}

/** An active request's status reason after booking started or stopped waiting for a reconnect. */
function withReason(step: Decided, now: number): Decided {
  const { state } = step
  if (state.status !== 'active') return step
  const reason = activeReason(state)
  return reason === state.statusReason ? step : { ...step, state: transition(state, { reason }, now) }
}

/**
 * A told slot seen again: the availability object pushes a slot only when the last poll did not
 * have it (or to a new subscription), so a told slot seen again went and came back.
 */
const cameBack = (state: RequestState, key: string) => Object.hasOwn(state.toldAt, key) && !state.digest?.tables.some((t) => t.key === key)

/**
 * Tells the user about the slots (once each, and `back`: told before, seen again) in the next
 * digest, with why they were not booked if they could have been. The digest goes out on the
 * request's alarm, or in this step (decide-digest.ts).
 */
function alertInstead(
  state: RequestState,
  found: { slot: Table & { terms?: SlotTerms } }[],
  venue: { venueName: string; venuePage: string | null },
  why: string | null,
  now: number,
  patch: Change['patch'] = {},
  back: { slot: Table & { terms?: SlotTerms } }[] = [],
): Decided {
  const slots = [
    ...found.map((f) => f.slot).filter((s) => !state.alerted.includes(slotKey(s))),
    ...back.map((f) => f.slot).filter((s) => cameBack(state, slotKey(s))),
  ]
  if (slots.length === 0) return stateOnly(state)
  const when = (s: Table) => tableWhen(s.day, s.time, state.spec.timezone)
  const trace = why
    ? slots.map((s) => `Not booked: ${venue.venueName}, ${when(s)}, ${s.seatingType}: ${why}; you are told in the next alert.`)
    : []
  const tables = slots.map((s) => ({
    venueId: s.venueId,
    day: s.day,
    time: s.time,
    seatingType: s.seatingType,
    ...venue,
    fee: feeWords(s.terms),
    note: why,
    key: slotKey(s),
    ...(Object.hasOwn(state.toldAt, slotKey(s)) ? { toldAt: state.toldAt[slotKey(s)] } : {}),
    ...(why === RECONNECT_TO_BOOK ? { waitsFor: 'reconnect' as const } : {}),
    ...(pressableNow(state, s, patch.unbookableVenues ?? state.unbookableVenues, now) ? { bookable: true as const } : {}),
  }))
  const told = toldOf(state, slots.map(slotKey), addToDigest(state, tables, now))
  const pressable = pressableOf(state, pressableTables(slots, venue, state.spec.timezone, now))
  return { state: transition(state, { trace, patch: { ...patch, ...told, ...pressable } }, now), effects: [] }
}

/** Whether a press could book this told table: the platform offered it as a slot, at a venue the service books, on terms it may book. */
function pressableNow(
  state: RequestState,
  table: Table & { terms?: SlotTerms },
  unbookableVenues: RequestState['unbookableVenues'],
  now: number,
): boolean {
  if (!isSlot(table) || blockerOf({ unbookableVenues }, table.venueId)) return false
  const startsAt = instantOf(table.startDate, table.time, state.spec.timezone)
  return pressTermsOf(table.terms, state.spec, { day: table.day, startsAt, timeZone: state.spec.timezone }, now).kind === 'bookable'
}

/** A table as the platform offered it (a slot with its config and terms), not one named again after an attempt. */
const isSlot = (table: Table & { terms?: SlotTerms }): table is Slot =>
  'configId' in table && 'startDate' in table && table.terms !== undefined

/** The told tables the platform offered as slots (not those named again after an attempt): each may be pressed. */
function pressableTables(
  slots: (Table & { terms?: SlotTerms })[],
  venue: { venueName: string; venuePage: string | null },
  timeZone: string,
  now: number,
): Record<string, PressableTable> {
  const offered = slots.filter(isSlot)
  return Object.fromEntries(
    offered.map((slot) => [slotKey(slot), { slot, ...venue, startsAt: instantOf(slot.startDate, slot.time, timeZone), seenAt: now }]),
  )
}

/** The next matching slot of the same poll, if the one checked was not booked; else the check is over. */
function tryNext(step: Decided, offer: Offer, now: number): Decided {
  const [next, ...rest] = offer.rest
  if (!next || !mayBook(step.state)) return { ...step, state: checkDone(step.state, now) }
  return { ...step, effects: [...step.effects, checkOffer(step.state, { ...offer, ...next, rest })] }
}

export const checkDone = (state: RequestState, now: number) =>
  state.checkingOffer === null ? state : transition(state, { patch: offerCheckOver() }, now)

function offerChecked(state: RequestState, event: Extract<BookingEvent, { kind: 'offer_checked' }>, now: number): Decided {
  const { offer, answer } = event
  // The last gate before money can move: still active, the approved revision is the current
  // one and the one the slot was matched against, no attempt yet, booking not disabled.
  if (!mayBook(state) || state.revision !== offer.revision) return stateOnly(checkDone(state, now))
  switch (answer.kind) {
    case 'gone':
      return tryNext(stateOnly(state), offer, now)
    case 'unavailable':
    case 'busy':
      // A passing failure: the availability object delivers the slots again at its next poll.
      return { ...stateOnly(checkDone(state, now)), reply: { redeliver: true } }
    case 'no_connection': {
      // The session ended or was refused: these tables are told "reconnect to book", watching goes
      // on, and later tables are told the same without a call until the account is back.
      const all = [offer, ...offer.rest]
      const keys = all.map((o) => slotKey(o.slot)).filter((key) => !state.alerted.includes(key))
      const patch = { ...offerCheckOver(), reconnectToBook: waitingForReconnect(state, keys) }
      const alerted = withReason(alertInstead(state, all, offer, RECONNECT_TO_BOOK, now, patch), now)
      return { ...alerted, effects: [...alerted.effects, ...reconnectNotice(state, answer.reconnectNotice)] }
    }
    case 'unbookable': {
      // The venue's booking asks for a captcha, or its tables are Tock's: told, never tried (and never again).
      const all = [offer, ...offer.rest]
      const unbookableVenues = { ...state.unbookableVenues, [String(offer.slot.venueId)]: answer.blocker }
      return alertInstead(state, all, offer, blockerWhy(answer.blocker), now, { ...offerCheckOver(), unbookableVenues })
    }
    case 'ok': {
      // The money terms come from the find slot; the details reply is only a cross-check.
      const { slot } = offer
      const at = { day: slot.day, startsAt: offer.startsAt, timeZone: state.spec.timezone }
      const money = decideBooking({ terms: slot.terms, details: answer.details, spec: state.spec, at, now })
      const held = heldWhy(tableHeldForDinner(state.spec, answer.held))
      if (money.kind === 'alert' || held) {
        return tryNext(alertInstead(state, [offer], offer, money.kind === 'alert' ? money.reason : (held ?? ''), now), offer, now)
      }
      return startAttempt(state, offer, answer, money, now)
    }
  }
}

/**
 * The one attempt, decided and stored before the book call goes out: `awaiting_verification`,
 * then the book effect with the details' token (auto_book's offer, or the diner's press, decided
 * with its own spec: decide-press.ts).
 */
export function startAttempt(
  state: RequestState,
  offer: Offer,
  answer: { details: BookingDetails; held: PlatformReservation[] },
  money: Extract<BookingDecision, { kind: 'book' }>,
  now: number,
  pressed: { spec: Spec; patch: Change['patch'] } | null = null,
): Decided {
  const { slot } = offer
  const spec = pressed?.spec ?? state.spec
  const attempt: BookingAttempt = {
    slotKey: slotKey(slot),
    venueId: slot.venueId,
    venueName: offer.venueName,
    day: slot.day,
    time: slot.time,
    partySize: state.spec.party_size,
    seatingType: slot.seatingType,
    startsAt: offer.startsAt,
    revision: state.revision,
    cancellationFee: money.feePerPerson,
    freeCancellationUntil: money.freeCancellationUntil,
    needsCard: money.needsCard,
    cardOnFile: money.needsCard ? CARD_ALREADY_SENT : cardOnFileRule({ terms: slot.terms, details: answer.details, spec, now }),
    retriedWithCard: false,
    preexisting: answer.held.filter((r) => r.venueId === slot.venueId && r.day === slot.day).map((r) => r.reservationId),
    createdAt: now,
    outcome: 'pending',
    refusal: null,
    saidGone: null,
    absentReads: null,
    platformReservationId: null,
    checkAt: now + VERIFY_INTERVAL_MS,
    verifyUntil: now + VERIFY_WINDOW_MS,
  }
  const next = transition(
    state,
    {
      to: 'awaiting_verification',
      reason: 'A booking was submitted; verifying it with the platform.',
      trace: `Booking ${offer.venueName}, ${tableWhen(slot.day, slot.time, state.spec.timezone)} (${slot.seatingType}) for ${attempt.partySize}; cancellation fee ${dollars(attempt.cancellationFee ?? 0)} per person.`,
      patch: { ...pressed?.patch, ...attemptStarted(attempt) },
    },
    now,
  )
  return { state: next, effects: [{ kind: 'book', userId: state.userId, attempt, bookToken: answer.details.bookToken }] }
}

// E.g. the booking of a request stopped mid-verification landed: this dinner has its table.
export const heldWhy = (held: { day: string; time: string } | undefined) =>
  held ? `the platform account already holds a table for this dinner (${held.day} ${held.time})` : null

function bookingAnswer(state: RequestState, event: Extract<BookingEvent, { kind: 'booking_answer' }>, now: number): Decided {
  const attempt = state.attempt
  const notice = reconnectNotice(state, event.reconnectNotice)
  if (attempt?.createdAt !== event.attemptAt) return { state, effects: notice }
  const told = answered(attempt, event.outcome)
  // A card-on-file refusal, where the terms allow it: the one book call with the card.
  if (event.bookToken && mayRetryWithCard(told, state.status)) {
    const again = withCardAgain(state, attempt, event.bookToken, now)
    return { ...again, effects: [...notice, ...again.effects] }
  }
  // Whatever the platform said, the account decides: verify at once.
  // "Gone" but unclear: verified long enough for the account to disprove it (booking/booking-rules.ts).
  const verifyUntil = told.saidGone ? Math.max(told.verifyUntil, now + DISPROOF_WINDOW_MS) : told.verifyUntil
  const next = transition(state, { patch: attemptVerifying({ ...told, checkAt: now + VERIFY_INTERVAL_MS, verifyUntil }) }, now)
  return { state: next, effects: [...notice, verifyEffect(next)] }
}

/**
 * The venue refused the booking sent without a card because it wants the card on file: the
 * attempt now sends the card, and is stored so before the call goes out (a second delivery of the
 * refusal finds `retriedWithCard` and books nothing more). Its verification starts afresh.
 */
function withCardAgain(state: RequestState, attempt: BookingAttempt, bookToken: string, now: number): Decided {
  const again: BookingAttempt = {
    ...attempt,
    needsCard: true,
    retriedWithCard: true,
    outcome: 'pending',
    refusal: null,
    checkAt: now + VERIFY_INTERVAL_MS,
    verifyUntil: now + VERIFY_WINDOW_MS,
  }
  const where = `${attempt.venueName}, ${tableWhen(attempt.day, attempt.time, state.spec.timezone)}`
  const trace = `The restaurant wants a card on file: booking ${where} once more, with the card (its terms are stated and within your limits).`
  return {
    state: transition(state, { trace, patch: attemptVerifying(again) }, now),
    effects: [{ kind: 'book', userId: state.userId, attempt: again, bookToken }],
  }
}

function verifyEffect(state: RequestState): Effect {
  const attempt = state.attempt
  if (!attempt) throw new Error('verify needs an attempt')
  return { kind: 'verify', request: { id: state.id, userId: state.userId, principalId: state.principalId }, attempt }
}

/**
 * Found on the account: a verified reservation (and `confirmed`, unless the user stopped or
 * revoked meanwhile). Refused and absent: watching resumes. Unknown but "gone" in the
 * platform's words, and absent on enough reads over ten minutes: watching resumes (booking/booking-rules.ts
 * `disproved`). Otherwise unknown: keep looking until the window closes, then never book again; a
 * window that closes on an unreadable account keeps the attempt `unsettled`, looked for later.
 */
function verificationAnswer(state: RequestState, event: Extract<BookingEvent, { kind: 'verification_answer' }>, now: number): Decided {
  const attempt = state.attempt
  if (attempt?.createdAt !== event.attemptAt) {
    const unsettled = state.unsettled
    return unsettled?.createdAt === event.attemptAt ? unsettledAnswer(state, unsettled, event.answer, now) : stateOnly(state)
  }
  const { answer } = event
  const where = whereOf(state, attempt)
  if (answer.kind === 'found') {
    const trace = `Verified on the platform account: ${where} for ${attempt.partySize}.`
    return bookingRecorded(state, attempt, state.status === 'awaiting_verification', trace, attemptBooked(), now)
  }
  if (answer.kind === 'absent' && attempt.outcome === 'refused') {
    // The user hears of the table (and why it was not booked); it is not tried again, nor its
    // venue when the refusal shows the service cannot book there.
    const back = resumed(state, now, `The platform refused the booking (${attempt.refusal}) and nothing is on the account; watching again.`)
    const blocker = blockerOfRefusal(attempt.refusal)
    const patch = blocker ? { unbookableVenues: { ...state.unbookableVenues, [String(attempt.venueId)]: blocker } } : {}
    const table = { venueId: attempt.venueId, day: attempt.day, time: attempt.time, seatingType: attempt.seatingType }
    const venue = { venueName: attempt.venueName, venuePage: null }
    const alerted = alertInstead(back.state, [{ slot: table }], venue, refusalWhy(attempt), now, patch)
    return { state: alerted.state, effects: [...alerted.effects, ...back.effects] }
  }
  if (answer.kind === 'unreadable' && attempt.outcome === 'refused' && attempt.refusal === 'reauth') {
    // The platform refused the sign-in at the book call (nothing was booked), and without it the
    // account cannot be read: watching goes on, booking waits for the reconnect, and the table is
    // tried again then (an offer check reads the account first, so a second table is never booked).
    const back = resumed(
      state,
      now,
      'The platform refused the sign-in when booking, so nothing was booked; watching goes on, and booking waits for you to reconnect.',
    )
    const table = { venueId: attempt.venueId, day: attempt.day, time: attempt.time, seatingType: attempt.seatingType }
    const venue = { venueName: attempt.venueName, venuePage: null }
    const patch = { reconnectToBook: waitingForReconnect(state, [attempt.slotKey]) }
    const alerted = withReason(alertInstead(back.state, [{ slot: table }], venue, RECONNECT_TO_BOOK, now, patch), now)
    return { state: alerted.state, effects: [...reconnectNotice(state, answer.reconnectNotice), ...alerted.effects, ...back.effects] }
  }
  if (answer.kind === 'absent' && attempt.outcome === 'unknown' && attempt.saidGone) {
    const reads = withAbsentRead(attempt.absentReads ?? null, now)
    if (disproved(reads)) {
      // The account disproves the booking: back to watching, not alert-only.
      const minutes = Math.floor((reads.last - reads.first) / 60_000)
      const message = `The platform said the table was no longer available (${attempt.saidGone}) and ${reads.count} reads of the account over ${minutes} min show no such reservation: nothing was booked; watching again.`
      const back = resumed(state, now, message)
      const why = `the platform said it was no longer available (${attempt.saidGone})`
      const table = { venueId: attempt.venueId, day: attempt.day, time: attempt.time, seatingType: attempt.seatingType }
      const alerted = alertInstead(back.state, [{ slot: table }], { venueName: attempt.venueName, venuePage: null }, why, now)
      return { state: alerted.state, effects: [...alerted.effects, ...back.effects] }
    }
    if (now < attempt.verifyUntil) {
      const patch = attemptVerifying({ ...attempt, absentReads: reads, checkAt: now + VERIFY_INTERVAL_MS })
      return { state: transition(state, { patch }, now), effects: [] }
    }
  }
  const notice = answer.kind === 'unreadable' ? reconnectNotice(state, answer.reconnectNotice) : []
  if (now < attempt.verifyUntil) {
    // Keep verifying on later alarms; never book meanwhile.
    return {
      state: transition(state, { patch: attemptVerifying({ ...attempt, checkAt: now + VERIFY_INTERVAL_MS }) }, now),
      effects: notice,
    }
  }
  const disabled = 'An earlier booking could not be verified; this request now only alerts.'
  const unverified: Effect = {
    kind: 'notify',
    to: recipientOf(state),
    notice: { type: 'unverified', venueName: attempt.venueName, day: attempt.day, time: attempt.time },
  }
  if (answer.kind === 'unreadable') {
    // The account said neither yes nor no: the booking may have landed, so it is looked for on
    // later alarms, whatever becomes of the request, and recorded for it if it shows.
    const why = `The booking could not be verified: the platform account could not be read. This request will not book again; it looks at the account every ${UNSETTLED_LOOK_MS / 60_000} minutes and records the booking if it shows.`
    const gaveUp = resumed(state, now, why, disabled)
    const kept = transition(gaveUp.state, { patch: attemptUnsettled(attempt, now + UNSETTLED_LOOK_MS) }, now)
    return { state: kept, effects: [...notice, unverified, ...gaveUp.effects] }
  }
  const why = 'The booking could not be verified either way; check the platform account. This request will not book again.'
  const gaveUp = resumed(state, now, why, disabled)
  return { ...gaveUp, effects: [...notice, unverified, ...gaveUp.effects] }
}

/**
 * The account's answer about an attempt whose window closed while it could not be read. Shown:
 * recorded for this request (the verify effect claimed it), the user told it is booked, and a
 * request still watching is confirmed. None shown: nothing was booked (the window has long
 * closed, so a lagging list cannot hide it). Unreadable: looked for again, until the table's time.
 */
function unsettledAnswer(state: RequestState, attempt: BookingAttempt, answer: VerifyAnswer, now: number): Decided {
  const where = whereOf(state, attempt)
  if (answer.kind === 'found') {
    const trace = `Verified on the platform account after all: ${where} for ${attempt.partySize}; the booking is recorded for this request.`
    return bookingRecorded(state, attempt, state.status === 'active', trace, attemptSettled(), now)
  }
  if (answer.kind === 'absent') {
    const trace = `The platform account shows no booking at ${where}: nothing was booked.`
    return stateOnly(transition(state, { trace, patch: attemptSettled() }, now))
  }
  const notice = reconnectNotice(state, answer.reconnectNotice)
  if (now >= attempt.startsAt) {
    const trace = `The platform account could not be read before ${where}; the service no longer looks for that booking: check the account.`
    return { state: transition(state, { trace, patch: attemptSettled() }, now), effects: notice }
  }
  return { state: transition(state, { patch: attemptUnsettled(attempt, now + UNSETTLED_LOOK_MS) }, now), effects: notice }
}

const whereOf = (state: RequestState, attempt: BookingAttempt) =>
  `${attempt.venueName}, ${tableWhen(attempt.day, attempt.time, state.spec.timezone)}`

/**
 * The account shows the attempt's booking: recorded for this request, the user told, watching
 * ended; a request still open for booking (`confirm`) becomes confirmed, any other keeps its status.
 */
function bookingRecorded(
  state: RequestState,
  attempt: BookingAttempt,
  confirm: boolean,
  trace: string,
  settled: Change['patch'],
  now: number,
): Decided {
  const watch = stopWatching(state)
  const next = transition(
    state,
    {
      to: confirm ? 'confirmed' : state.status,
      reason: confirm ? 'Booked and verified on the platform account.' : undefined,
      trace,
      patch: { ...settled, ...watch.patch },
    },
    now,
  )
  return { state: next, effects: [bookedNotice(state, attempt), ...watch.effects] }
}

function bookedNotice(state: RequestState, attempt: BookingAttempt): Effect {
  const booking = {
    venueName: attempt.venueName,
    day: attempt.day,
    time: attempt.time,
    timeZone: state.spec.timezone,
    partySize: attempt.partySize,
    seatingType: attempt.seatingType,
    cancellationFee: attempt.cancellationFee,
    freeCancellationUntil: attempt.freeCancellationUntil,
  }
  return { kind: 'notify', to: recipientOf(state), notice: { type: 'booked', booking } }
}

/** Back to watching (or expired) after an attempt that booked nothing. Stopped stays stopped. */
function resumed(state: RequestState, now: number, message: string, bookingDisabled = state.bookingDisabled): Decided {
  if (state.status !== 'awaiting_verification') {
    return stateOnly(transition(state, { trace: message, patch: attemptBookedNothing(bookingDisabled) }, now))
  }
  if (now >= state.expiresAt) {
    const watch = stopWatching(state)
    const patch = { ...attemptBookedNothing(bookingDisabled), ...watch.patch }
    const reason = 'Expired; nothing was booked.'
    return {
      state: transition(state, { to: 'expired', reason, trace: message, patch }, now),
      effects: [...watch.effects, endedNotice(state, 'expired', reason)],
    }
  }
  // Subscribing again delivers the slots that appeared while the booking was verified.
  const watch = startWatching(state, now)
  const patch = { ...attemptBookedNothing(bookingDisabled), ...watch.patch }
  return { state: transition(state, { to: 'active', reason: null, trace: message, patch }, now), effects: watch.effects }
}
