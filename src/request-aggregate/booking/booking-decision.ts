// The auto-book decision for one matching slot (design.md "Auto-book rules"), from the evidence
// of docs/platform.md, "Money terms": what a table costs is read from the /4/find slot's
// `payment` and its venue template; the /3/details reply gives the book token and is only a
// cross-check. Any doubt — a field missing or unreadable, the two sources disagreeing, a term
// beyond the request's limits — means "alert instead", with the reason in words. Pure.
// docs/decisions/booking.md lists every field read here, in order; docs/platform.md their sources.
import { dollars } from '../../lib/money'
import { instantOf } from '../../lib/zoned-time'
import type { BookingDetails, ChargedAmounts, SlotTerms, TemplateTerms } from '../../platform/api'
import type { Spec } from '../spec'

/** What the find reply says booking the table commits to. */
export type MoneyTerms =
  /** is_paid false, no deposit, no fee: no card is held. */
  | { kind: 'no_card' }
  /** is_paid true, no deposit: a card is held against a late-cancellation / no-show fee. */
  | { kind: 'card_hold'; fee: number; freeUntil: number | null }
  /**
   * Money is taken when booking: a deposit or prepayment (deposit_fee), a ticket (is_event), or a
   * paid add-on (payment.is_add_on_required), read as prepaid whatever the fee fields say.
   */
  | { kind: 'up_front'; what: 'deposit' | 'ticket' | 'add_on'; amount: number | null }

export type Reading<T> = { ok: true; value: T } | { ok: false; reason: string }

export interface ServiceTime {
  /** The service day (YYYY-MM-DD) and the table's start instant. */
  day: string
  startsAt: number
  timeZone: string
}

export type BookingDecision =
  /** `needsCard`: the table holds a card, so /3/book carries struct_payment_method; else it must not (docs/platform.md, "Booking"). */
  { kind: 'book'; feePerPerson: number; freeCancellationUntil: number | null; needsCard: boolean } | { kind: 'alert'; reason: string }

const HOUR_MS = 3_600_000
/** Details and find cut-offs within this of each other are the same deadline (rounding, seconds). */
const CUT_OFF_TOLERANCE_MS = 60_000
const hoursWord = (hours: number) => `${hours} hour${hours === 1 ? '' : 's'}`
const unknown = (reason: string): Reading<MoneyTerms> => ({ ok: false, reason })

/** "HH:MM:SS" (or "HH:MM") → "HH:MM", or null when it is not a time of day. */
function clockOf(value: string): string | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)(?::[0-5]\d)?$/.exec(value.trim())
  return m ? `${m[1]}:${m[2]}` : null
}

/**
 * Free cancellation ends `secs_cancel_cut_off` before the reference: the service day at
 * `time_cancel_cut_off` when set, else the table's start ([idx 60616170099]; docs/platform.md, "Money terms").
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
  // A paid add-on comes with the table even where every fee field is null (docs/platform.md, "Money terms").
  if (terms.addOnRequired === true) return { ok: true, value: { kind: 'up_front', what: 'add_on', amount: null } }
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

const AMOUNT_WORDS: [keyof ChargedAmounts, string][] = [
  ['reservationCharge', 'a reservation charge'],
  ['resyFee', 'a Resy fee'],
  ['serviceFee', 'a service fee'],
  ['tax', 'tax'],
  ['total', 'in total'],
]

/**
 * Why the details' `payment.amounts` stop an automatic booking, or null: any of them above 0 is
 * money taken at booking, and no `amounts` at all leaves what booking costs unknown (docs/platform.md, "Money terms",
 * [idx 53104099941]). The request states no charge it allows, so none is approved.
 */
export function chargesWhy(amounts: ChargedAmounts | null): string | null {
  if (amounts === null) return 'the booking details do not say what booking charges'
  const charged = AMOUNT_WORDS.flatMap(([field, words]) => {
    const value = amounts[field] ?? 0
    return value > 0 ? [`${field === 'total' ? `${dollars(value)} ${words}` : `${words} of ${dollars(value)}`}`] : []
  })
  return charged.length === 0 ? null : `booking would charge ${charged.join(', ')} at once`
}

/**
 * A fee, charge, deposit or prepayment stated in words, or a dollar amount: some venues state a
 * per-person reservation fee only in `need_to_know` ([idx 37355943101]), and nothing else
 * in the platform's answers may show it.
 */
const STATED_MONEY =
  /\$\s?\d|\b\d+(?:\.\d+)?\s?(?:dollars?|usd)\b|\b(?:sur)?charge[sd]?\b|\bfees?\b|\bdeposits?\b|\bpre-?pa(?:id|y|yments?)\b/i

/** The sentence of the venue's notes that states money, shortened; null when none does. */
export function statedMoneyIn(needToKnow: string | null): string | null {
  if (!needToKnow) return null
  const sentence = needToKnow.split(/(?<=[.!?])\s+/).find((part) => STATED_MONEY.test(part))
  if (!sentence) return null
  const trimmed = sentence.trim()
  return trimmed.length > 160 ? `${trimmed.slice(0, 157)}…` : trimmed
}

/**
 * The large-party terms of the table's template for this party: the fee that replaces the
 * table's own from `large_party_size_cancel` on, or why it cannot be used.
 */
export function largePartyFeeOf(template: TemplateTerms | null, partySize: number): Reading<number | null> {
  const size = template?.largePartySize ?? null
  if (size === null || size <= 0 || partySize < size) return { ok: true, value: null }
  const fee = template?.largePartyFee ?? null
  if (fee === null) return { ok: false, reason: `for parties of ${size} or more the platform states a large-party policy but no fee` }
  return { ok: true, value: fee }
}

/**
 * Where the details reply contradicts the find terms, in words; null when it agrees. The fee
 * may be stated per person or for the party (unknown: docs/platform.md, "Money terms"), so either agrees.
 */
function detailsDisagreement(terms: MoneyTerms, details: BookingDetails, partySize: number): string | null {
  if (terms.kind === 'up_front') return null // never booked anyway
  const fee = details.cancellationFee
  if (terms.kind === 'no_card') return (fee ?? 0) > 0 ? `the booking details state a ${dollars(fee ?? 0)} cancellation fee` : null
  if (fee === null) return 'the booking details do not confirm the cancellation fee'
  const same = (a: number, b: number) => Math.abs(a - b) < 0.005
  if (!same(fee, terms.fee) && !same(fee, terms.fee * partySize)) {
    return `the booking details state a ${dollars(fee)} cancellation fee, the table ${dollars(terms.fee)}`
  }
  const until = details.freeCancellationUntil
  if (until !== null && terms.freeUntil !== null && Math.abs(until - terms.freeUntil) > CUT_OFF_TOLERANCE_MS) {
    return 'the booking details state another free-cancellation deadline'
  }
  return null
}

/**
 * Book, or alert and say why. The whole cancellation fee is compared with the per-person limit
 * (never divided by the party: the stricter reading); with no fee, cancelling is free until
 * the table's own time.
 */
export function decideBooking(input: {
  terms: SlotTerms
  details: BookingDetails
  spec: Spec
  at: ServiceTime
  now: number
}): BookingDecision {
  const { spec, at, now } = input
  const read = moneyTermsOf(input.terms, at)
  if (!read.ok) return { kind: 'alert', reason: read.reason }
  const stated = read.value
  if (stated.kind === 'up_front') {
    const amount = stated.amount === null ? '' : ` (${dollars(stated.amount)})`
    return {
      kind: 'alert',
      reason:
        stated.what === 'ticket'
          ? `it is a ticketed experience${amount}`
          : stated.what === 'add_on'
            ? 'it comes with a paid add-on, which Tablewatch treats as a prepayment'
            : `it needs a deposit or prepayment${amount}`,
    }
  }
  // Money stated outside the slot's payment (docs/platform.md, "Money terms"): the details' amounts, the notes, large parties.
  const charges = chargesWhy(input.details.amounts)
  if (charges) return { kind: 'alert', reason: charges }
  const inNotes = statedMoneyIn(input.terms.template?.needToKnow ?? null)
  if (inNotes) return { kind: 'alert', reason: `the restaurant's notes mention money: "${inNotes}"` }
  const large = largePartyFeeOf(input.terms.template, spec.party_size)
  if (!large.ok) return { kind: 'alert', reason: large.reason }
  const largeSize = input.terms.template?.largePartySize ?? 0
  if (large.value !== null && large.value > spec.max_cancellation_fee_per_person) {
    return {
      kind: 'alert',
      reason: `for parties of ${largeSize} or more the cancellation fee is ${dollars(large.value)} per person, above the ${dollars(spec.max_cancellation_fee_per_person)} limit`,
    }
  }
  if (large.value !== null && large.value > 0 && stated.kind === 'no_card') {
    return { kind: 'alert', reason: `a ${dollars(large.value)} large-party cancellation fee applies to a table that holds no card` }
  }
  // From the large-party size on, its fee is the one the details must confirm and the limit bounds.
  const terms: MoneyTerms = stated.kind === 'card_hold' && large.value !== null ? { ...stated, fee: large.value } : stated
  const disagreement = detailsDisagreement(terms, input.details, spec.party_size)
  if (disagreement) return { kind: 'alert', reason: `the platform's answers disagree: ${disagreement}` }
  const fee = terms.kind === 'card_hold' ? terms.fee : 0
  if (fee > spec.max_cancellation_fee_per_person) {
    return {
      kind: 'alert',
      reason: `the cancellation fee is ${dollars(fee)} per person, above the ${dollars(spec.max_cancellation_fee_per_person)} limit`,
    }
  }
  const statedUntil = terms.kind === 'card_hold' ? terms.freeUntil : null
  const freeUntil = statedUntil ?? (fee === 0 ? at.startsAt : null)
  if (freeUntil === null) return { kind: 'alert', reason: 'the platform states no free-cancellation deadline' }
  const hoursLeft = (freeUntil - now) / HOUR_MS
  if (hoursLeft < spec.fee_review_hours) {
    return {
      kind: 'alert',
      // Worded as the API means fee_review_hours (spec/interface.md): a minimum distance from booking.
      reason: `the free-cancellation deadline must be at least ${hoursWord(spec.fee_review_hours)} after booking; ${
        hoursLeft <= 0 ? 'it has passed' : hoursLeft < 1 ? 'it is less than an hour away' : `it is ${Math.floor(hoursLeft)} h away`
      }`,
    }
  }
  // The card goes only to a table that holds one: sent elsewhere, it lets a fee stated only in
  // text be charged (docs/platform.md, "Booking"; `AbhiSivaprasad/resy-bot:server/src/external/api.ts`, `Cierge:resy/book.go`).
  return { kind: 'book', feePerPerson: fee, freeCancellationUntil: statedUntil, needsCard: terms.kind === 'card_hold' }
}
