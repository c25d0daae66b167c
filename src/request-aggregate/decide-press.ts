// "Book this table", pure: the diner's press on the service's page is the approval of one told
// table and the terms the page showed. It books through the same steps as auto_book (the
// platform's details and the account's reservations, then the one attempt, then verification on
// the account), with the same money decision (booking/booking-decision.ts) and only the
// cancellation-fee limit raised to the fee the diner accepted for this table
// (booking/press-terms.ts). One press is carried out at a time; a second press of the same
// table, from another tab or device, finds it in flight (or done) and books nothing more.
import { tableWhen } from '../alerts/alert-time'
import { slotKey } from '../watching/match'
import { decideBooking } from './booking/booking-decision'
import { tableHeldForDinner } from './booking/booking-rules'
import { blockerOf, blockerWhy, RECONNECT_TO_BOOK } from './booking/booking-waits'
import { pressSpec, pressTermsOf, termsFingerprint } from './booking/press-terms'
import { offerCheckOver, offerCheckStarted } from './booking-state'
import { checkDone, heldWhy, startAttempt } from './decide-booking'
import { reconnectNotice } from './decide-watch'
import type { Effect, Offer, RequestEvent } from './events'
import { type Press, type PressOutcome, pressAt, pressInFlight } from './press-state'
import { type Change, type RequestState, transition } from './state'
import { type Decided, stateOnly } from './step'

type PressEvent = Extract<RequestEvent, { kind: 'press' }>
type OfferChecked = Extract<RequestEvent, { kind: 'offer_checked' }>
type VerificationAnswer = Extract<RequestEvent, { kind: 'verification_answer' }>

/** An offer check older than this died with its object (as in decide-booking.ts). */
const OFFER_CHECK_TIMEOUT_MS = 60_000

/** Why a press cannot go ahead on this request now, before anything is asked of the platform. */
function refusalOf(state: RequestState, event: PressEvent, now: number): { outcome: PressOutcome; reason: string } | null {
  if (state.attempt || state.status === 'awaiting_verification') {
    return { outcome: 'refused', reason: 'A booking for this request is being verified; wait for its outcome.' }
  }
  if (state.status === 'confirmed') return { outcome: 'refused', reason: 'This request has its booking already: one booking per request.' }
  if (state.status !== 'active') return { outcome: 'refused', reason: `This request is ${state.status}; it no longer books.` }
  if (state.bookingDisabled) return { outcome: 'refused', reason: state.bookingDisabled }
  // An earlier attempt the account never answered for may still have booked this dinner.
  if (state.unsettled) {
    return {
      outcome: 'refused',
      reason: 'An earlier booking for this request may have gone through; it is being looked for on your account.',
    }
  }
  const table = state.pressable[event.slotKey]
  if (!table) {
    return { outcome: 'refused', reason: 'This table is not among the latest ones this request told you about; look at its newest tables.' }
  }
  const blocker = blockerOf(state, table.slot.venueId)
  if (blocker) return { outcome: 'refused', reason: blockerWhy(blocker) }
  if (state.reconnectToBook !== null) return { outcome: 'reconnect', reason: RECONNECT_TO_BOOK }
  if (state.checkingOffer !== null && now - state.checkingOffer < OFFER_CHECK_TIMEOUT_MS) {
    return { outcome: 'refused', reason: 'Tablewatch is checking another table for this request right now; press again in a moment.' }
  }
  if (termsFingerprint(table.slot.terms) !== event.terms) {
    return {
      outcome: 'terms_changed',
      reason: 'The platform changed the terms of this table after the page was shown; read the new terms.',
    }
  }
  const at = { day: table.slot.day, startsAt: table.startsAt, timeZone: state.spec.timezone }
  const terms = pressTermsOf(table.slot.terms, state.spec, at, now)
  if (terms.kind === 'never') return { outcome: 'refused', reason: `Tablewatch never books this table: ${terms.reason}.` }
  if (terms.aboveLimit && event.acceptedFee !== terms.feePerPerson) {
    return { outcome: 'refused', reason: 'Its cancellation fee is above your limit: accept that fee on the page to book it.' }
  }
  return null
}

/**
 * Whether the last press is still being carried out: its check for at most the time an offer
 * check may take (one that died with its object lets the next press go), its booking while its
 * attempt is verified.
 */
function pressCarriedOut(state: RequestState, now: number): boolean {
  const press = state.press
  if (!pressInFlight(press) || !press) return false
  if (press.outcome === 'checking') return now - press.at < OFFER_CHECK_TIMEOUT_MS
  return state.attempt?.slotKey === press.slotKey
}

export function pressTable(state: RequestState, event: PressEvent, now: number): Decided {
  // A press in flight, or this table's press already booked: the same outcome, nothing more.
  if (pressCarriedOut(state, now)) return stateOnly(state)
  if (state.press?.slotKey === event.slotKey && state.press.outcome === 'booked') return stateOnly(state)
  const press: Press = { slotKey: event.slotKey, at: now, acceptedFee: event.acceptedFee, outcome: 'checking', reason: null }
  const refusal = refusalOf(state, event, now)
  if (refusal) {
    const trace = `"Book this table" pressed; not booked: ${refusal.reason}`
    return stateOnly(transition(state, { trace, patch: pressAt({ ...press, ...refusal }) }, now))
  }
  const table = state.pressable[event.slotKey]
  if (!table) return stateOnly(state)
  const offer: Offer = {
    slot: table.slot,
    venueName: table.venueName,
    venuePage: table.venuePage,
    startsAt: table.startsAt,
    revision: state.revision,
    rest: [],
    pressed: true,
  }
  const where = `${table.venueName}, ${tableWhen(table.slot.day, table.slot.time, state.spec.timezone)} (${table.slot.seatingType})`
  const next = transition(
    state,
    {
      trace: `"Book this table" pressed for ${where}: checking it with the platform.`,
      patch: { ...pressAt(press), ...offerCheckStarted(now) },
    },
    now,
  )
  const effect: Effect = { kind: 'check_offer', userId: state.userId, spec: state.spec, offer, requestId: state.id }
  return { state: next, effects: [effect] }
}

/** The platform's answers before booking the pressed table: book it, or end the press with why not. */
export function pressOfferChecked(state: RequestState, event: OfferChecked, now: number): Decided {
  const { offer, answer } = event
  const press = state.press
  if (press?.outcome !== 'checking' || press.slotKey !== slotKey(offer.slot)) return stateOnly(checkDone(state, now))
  const end = (outcome: PressOutcome, reason: string, patch: Change['patch'] = {}, effects: Effect[] = []): Decided => ({
    state: transition(
      state,
      {
        trace: `"Book this table": not booked: ${reason}`,
        patch: { ...offerCheckOver(), ...patch, ...pressAt({ ...press, outcome, reason }) },
      },
      now,
    ),
    effects,
  })
  // The same last gate as auto_book's: still active, unchanged, no attempt (settled or not), booking not disabled.
  if (state.status !== 'active' || state.attempt || state.unsettled || state.bookingDisabled || state.revision !== offer.revision) {
    return end('refused', 'the request changed (stopped or updated) while the table was checked; nothing was booked.')
  }
  switch (answer.kind) {
    case 'gone':
      return end('taken', 'someone else booked this table first; nothing was booked.')
    case 'unavailable':
    case 'busy':
      return end('refused', 'the platform did not answer in time; nothing was booked. Press again.')
    case 'no_connection':
      return end('reconnect', RECONNECT_TO_BOOK, {}, reconnectNotice(state, answer.reconnectNotice))
    case 'unbookable':
      return end('refused', blockerWhy(answer.blocker), {
        unbookableVenues: { ...state.unbookableVenues, [String(offer.slot.venueId)]: answer.blocker },
      })
    case 'ok': {
      const spec = pressSpec(state.spec, press.acceptedFee)
      const at = { day: offer.slot.day, startsAt: offer.startsAt, timeZone: state.spec.timezone }
      const money = decideBooking({ terms: offer.slot.terms, details: answer.details, spec, at, now })
      const held = heldWhy(tableHeldForDinner(state.spec, answer.held))
      if (held) return end('refused', `${held}.`)
      if (money.kind === 'alert') {
        // The details (the terms at booking) contradict the terms the page showed: a new press must see them.
        const changed = money.reason.startsWith("the platform's answers disagree")
        return end(changed ? 'terms_changed' : 'refused', `${money.reason}.`)
      }
      return startAttempt(state, offer, answer, money, now, { spec, patch: pressAt({ ...press, outcome: 'booking' }) })
    }
  }
}

/** After verification ends the pressed attempt: booked (the account shows it), or why nothing was. */
export function withPressVerified(before: RequestState, event: VerificationAnswer, decided: Decided, now: number): Decided {
  const press = before.press
  const attempt = before.attempt
  if (press?.outcome !== 'booking' || attempt?.slotKey !== press.slotKey || attempt.createdAt !== event.attemptAt) return decided
  if (decided.state.attempt !== null) return decided
  const found = event.answer.kind === 'found'
  const gone = attempt.refusal === 'slot_gone' || attempt.saidGone !== null
  const outcome: PressOutcome = found ? 'booked' : gone ? 'taken' : 'refused'
  const reason = found ? null : (decided.state.trace.at(-1)?.message ?? 'nothing was booked.')
  return { ...decided, state: transition(decided.state, { patch: pressAt({ ...press, outcome, reason }) }, now) }
}
