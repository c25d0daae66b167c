// The auto-book decision for one matching slot (design.md "Auto-book rules"), from the evidence
// of shared/reference/resy-api.md §10: what a table costs is read from the /4/find slot's
// `payment` and its venue template; the /3/details reply gives the book token and is only a
// cross-check. Any doubt — a field missing or unreadable, the two sources disagreeing, a term
// beyond the request's limits — means "alert instead", with the reason in words. Pure.
// docs/decisions.md (issue 11) lists every field read here and its public source.
import { instantOf } from '../../lib/zoned-time'
import type { BookingDetails, SlotTerms } from '../../platform/api'
import type { RequestSpec } from '../schemas'

/** What the find reply says booking the table commits to. */
export type MoneyTerms =
  /** is_paid false, no deposit, no fee: no card is held. */
  | { kind: 'no_card' }
  /** is_paid true, no deposit: a card is held against a late-cancellation / no-show fee. */
  | { kind: 'card_hold'; fee: number; freeUntil: number | null }
  /** Money is taken when booking: a deposit or prepayment (deposit_fee), or a ticket (is_event). */
  | { kind: 'up_front'; what: 'deposit' | 'ticket'; amount: number | null }

export type Reading<T> = { ok: true; value: T } | { ok: false; reason: string }

export interface ServiceTime {
  /** The service day (YYYY-MM-DD) and the table's start instant. */
  day: string
  startsAt: number
  timeZone: string
}

export type BookingDecision =
  | { kind: 'book'; feePerPerson: number; freeCancellationUntil: number | null }
  | { kind: 'alert'; reason: string }

const HOUR_MS = 3_600_000
/** Details and find cut-offs within this of each other are the same deadline (rounding, seconds). */
const CUT_OFF_TOLERANCE_MS = 60_000
const money = (amount: number) => `$${Number.isInteger(amount) ? amount : amount.toFixed(2)}`
const unknown = (reason: string): Reading<MoneyTerms> => ({ ok: false, reason })

/** "HH:MM:SS" (or "HH:MM") → "HH:MM", or null when it is not a time of day. */
export function clockOf(value: string): string | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)(?::[0-5]\d)?$/.exec(value.trim())
  return m ? `${m[1]}:${m[2]}` : null
}

/**
 * Free cancellation ends `secs_cancel_cut_off` before the reference: the service day at
 * `time_cancel_cut_off` when set, else the table's start ([idx 60616170099], §3).
 */
function freeUntilOf(terms: SlotTerms, at: ServiceTime): Reading<number | null> {
  if (terms.secsCancelCutOff === null) return { ok: true, value: null }
  let reference = at.startsAt
  if (terms.timeCancelCutOff !== null) {
    const clock = clockOf(terms.timeCancelCutOff)
    if (!clock) return { ok: false, reason: `the platform's cancellation cut-off time "${terms.timeCancelCutOff}" cannot be read` }
    reference = instantOf(at.day, clock, at.timeZone)
  }
  return { ok: true, value: reference - terms.secsCancelCutOff * 1000 }
}

/** What the find slot and its template say booking costs, or why that cannot be told. */
export function moneyTermsOf(terms: SlotTerms, at: ServiceTime): Reading<MoneyTerms> {
  if (!terms.paymentStated) return unknown('the platform stated no payment terms for this table')
  const template = terms.template
  if (!template) return unknown("the table's template is missing from the platform's answer, so a ticketed event cannot be ruled out")
  if (template.isEvent === null) return unknown('the platform did not say whether this is a ticketed event')
  if (template.isEvent) return { ok: true, value: { kind: 'up_front', what: 'ticket', amount: terms.depositFee } }
  if (terms.isPaid === null) return unknown('the platform did not say whether this table needs a card')
  const contradicts = <T>(stated: T | null, slot: T | null) => stated !== null && stated !== slot
  if (
    contradicts(template.isPaid, terms.isPaid) ||
    contradicts(template.depositFee, terms.depositFee) ||
    contradicts(template.cancellationFee, terms.cancellationFee)
  ) {
    return unknown('the table and its template state different payment terms')
  }
  if (terms.depositFee !== null) return { ok: true, value: { kind: 'up_front', what: 'deposit', amount: terms.depositFee } }
  if (!terms.isPaid) {
    if ((terms.cancellationFee ?? 0) > 0) return unknown('the platform states a cancellation fee for a table that holds no card')
    return { ok: true, value: { kind: 'no_card' } }
  }
  if (terms.cancellationFee === null) return unknown('the platform holds a card but states no cancellation fee')
  const freeUntil = freeUntilOf(terms, at)
  if (!freeUntil.ok) return freeUntil
  return { ok: true, value: { kind: 'card_hold', fee: terms.cancellationFee, freeUntil: freeUntil.value } }
}

/**
 * Where the details reply contradicts the find terms, in words; null when it agrees. The fee
 * may be stated per person or for the party (§10: UNCERTAIN), so either agrees.
 */
export function detailsDisagreement(terms: MoneyTerms, details: BookingDetails, partySize: number): string | null {
  if (terms.kind === 'up_front') return null // never booked anyway
  if ((details.chargedAtBooking ?? 0) > 0) return `the booking details charge ${money(details.chargedAtBooking ?? 0)} at booking`
  const fee = details.cancellationFee
  if (terms.kind === 'no_card') return (fee ?? 0) > 0 ? `the booking details state a ${money(fee ?? 0)} cancellation fee` : null
  if (fee === null) return 'the booking details do not confirm the cancellation fee'
  const same = (a: number, b: number) => Math.abs(a - b) < 0.005
  if (!same(fee, terms.fee) && !same(fee, terms.fee * partySize)) {
    return `the booking details state a ${money(fee)} cancellation fee, the table ${money(terms.fee)}`
  }
  const until = details.freeCancellationUntil
  if (until !== null && terms.freeUntil !== null && Math.abs(until - terms.freeUntil) > CUT_OFF_TOLERANCE_MS) {
    return 'the booking details state another free-cancellation deadline'
  }
  return null
}

/**
 * Book, or alert and say why. The whole cancellation fee is compared with the per-person limit
 * (never divided by the party: the stricter reading, §10); with no fee, cancelling is free until
 * the table's own time.
 */
export function decideBooking(input: {
  terms: SlotTerms
  details: BookingDetails
  spec: RequestSpec
  at: ServiceTime
  now: number
}): BookingDecision {
  const { spec, at, now } = input
  const read = moneyTermsOf(input.terms, at)
  if (!read.ok) return { kind: 'alert', reason: read.reason }
  const terms = read.value
  if (terms.kind === 'up_front') {
    const amount = terms.amount === null ? '' : ` (${money(terms.amount)})`
    return {
      kind: 'alert',
      reason: terms.what === 'ticket' ? `it is a ticketed experience${amount}` : `it needs a deposit or prepayment${amount}`,
    }
  }
  const disagreement = detailsDisagreement(terms, input.details, spec.party_size)
  if (disagreement) return { kind: 'alert', reason: `the platform's answers disagree: ${disagreement}` }
  const fee = terms.kind === 'card_hold' ? terms.fee : 0
  if (fee > spec.max_cancellation_fee_per_person) {
    return { kind: 'alert', reason: `cancellation fee ${fee} > ${spec.max_cancellation_fee_per_person} per person` }
  }
  const stated = terms.kind === 'card_hold' ? terms.freeUntil : null
  const freeUntil = stated ?? (fee === 0 ? at.startsAt : null)
  if (freeUntil === null) return { kind: 'alert', reason: 'the platform states no free-cancellation deadline' }
  const hoursLeft = (freeUntil - now) / HOUR_MS
  if (hoursLeft < spec.fee_review_hours) {
    return {
      kind: 'alert',
      reason: `free cancellation ends in ${Math.max(0, Math.floor(hoursLeft))} h, less than ${spec.fee_review_hours} h away`,
    }
  }
  return { kind: 'book', feePerPerson: fee, freeCancellationUntil: stated }
}
