// Card-on-file venues, pure. A table whose terms hold no card is booked without one (the card
// goes only where a table holds one: booking-decision.ts). Some venues answer such a book call
// with a bare 402 even at $0: they want the card on file (docs/platform.md, "Booking"). The card
// may then be sent once more, but only where a table that holds a card could be booked: the
// cancellation fee a card on file answers for is stated (0 counts) and within the request's
// limit, and a fee above 0 has a stated free-cancellation deadline far enough ahead. Otherwise the
// user is told, with why. The retry itself is decided in decide-booking.ts: once, only after that
// definite refusal, never after an unclear answer.

import { dollars } from '../../lib/money'
import type { BookingDetails, SlotTerms } from '../../platform/api'
import type { BookingAttempt, CardOnFile } from '../booking-state'
import type { Spec } from '../spec'
import { largePartyFeeOf } from './booking-decision'

const HOUR_MS = 3_600_000
const refuse = (why: string): CardOnFile => ({ allowed: false, why: `the restaurant wants a card on file to book, and ${why}` })

/** The attempt already sends the card: a 402 then is the card refused, never a reason to send it again. */
export const CARD_ALREADY_SENT: CardOnFile = { allowed: false, why: 'the platform refused the card on file' }

/**
 * For a table the booking decision books without a card: may the card go with a second book
 * call if the venue wants it on file? The fee is read from the find slot and the booking details
 * (either stating it suffices; the higher one counts), and for a large party the template's
 * large-party fee; compared whole with the per-person limit, as booking-decision.ts does.
 */
export function cardOnFileRule(input: { terms: SlotTerms; details: BookingDetails; spec: Spec; now: number }): CardOnFile {
  const { terms, details, spec, now } = input
  const large = largePartyFeeOf(terms.template, spec.party_size)
  if (!large.ok) return refuse(large.reason)
  const stated = [terms.cancellationFee, details.cancellationFee, large.value].filter((fee): fee is number => fee !== null)
  if (stated.length === 0) {
    return refuse('the platform states no cancellation fee for this table, so what a card on file could be charged is unknown')
  }
  const fee = Math.max(...stated)
  if (fee > spec.max_cancellation_fee_per_person) {
    return refuse(
      `a card on file answers for a ${dollars(fee)} per person cancellation fee, above the ${dollars(spec.max_cancellation_fee_per_person)} limit`,
    )
  }
  if (fee === 0) return { allowed: true }
  const freeUntil = details.freeCancellationUntil
  if (freeUntil === null) return refuse(`the platform states a ${dollars(fee)} cancellation fee and no free-cancellation deadline`)
  if ((freeUntil - now) / HOUR_MS < spec.fee_review_hours) {
    return refuse(`free cancellation ends less than ${spec.fee_review_hours} hours after booking`)
  }
  return { allowed: true }
}

/**
 * The book call's answer allows the one book call with the card: the venue refused the call sent
 * without a card because it wants the card on file (a definite refusal: nothing was booked), the
 * terms allowed it when the attempt was decided, it was not sent already, and the request still
 * waits on this booking (a stop meanwhile starts nothing new). Never after an unclear answer.
 */
export function mayRetryWithCard(
  answered: Pick<BookingAttempt, 'outcome' | 'refusal' | 'needsCard' | 'retriedWithCard' | 'cardOnFile'>,
  status: string,
): boolean {
  return (
    status === 'awaiting_verification' &&
    answered.outcome === 'refused' &&
    answered.refusal === 'card_on_file_required' &&
    !answered.needsCard &&
    !answered.retriedWithCard &&
    answered.cardOnFile.allowed
  )
}
