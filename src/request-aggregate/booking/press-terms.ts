// What a told table commits the diner to, for the "Book this table" page and its press, pure. The
// money decision is the one auto-book makes (booking-decision.ts): a press changes only the
// cancellation-fee limit, to the exact fee the page stated and the diner accepted for this table.
// Deposits, prepayment, tickets and any money the platform states elsewhere are never booked.
import { dollars } from '../../lib/money'
import type { SlotTerms } from '../../platform/api'
import type { Spec } from '../spec'
import { canonicalJson } from '../state'
import { largePartyFeeOf, moneyTermsOf, type ServiceTime, statedMoneyIn } from './booking-decision'

export type PressTerms =
  /** `aboveLimit`: the fee is above the request's limit, so the diner must accept it on the page. */
  | { kind: 'bookable'; feePerPerson: number; freeCancellationUntil: number | null; aboveLimit: boolean }
  /** Never booked by the service, whatever is pressed; `reason` in words. */
  | { kind: 'never'; reason: string }

/** The table's terms as the page states them, or why the service never books it. */
export function pressTermsOf(terms: SlotTerms, spec: Spec, at: ServiceTime, now: number): PressTerms {
  const read = moneyTermsOf(terms, at)
  if (!read.ok) return { kind: 'never', reason: read.reason }
  const stated = read.value
  if (stated.kind === 'up_front') {
    const amount = stated.amount === null ? '' : ` (${dollars(stated.amount)} per person)`
    return {
      kind: 'never',
      reason: stated.what === 'ticket' ? `it is a ticketed experience${amount}` : `it needs a deposit or prepayment${amount}`,
    }
  }
  const inNotes = statedMoneyIn(terms.template?.needToKnow ?? null)
  if (inNotes) return { kind: 'never', reason: `the restaurant's notes mention money: "${inNotes}"` }
  const large = largePartyFeeOf(terms.template, spec.party_size)
  if (!large.ok) return { kind: 'never', reason: large.reason }
  const fee = large.value ?? (stated.kind === 'card_hold' ? stated.fee : 0)
  if (fee > 0 && stated.kind === 'no_card')
    return { kind: 'never', reason: `a ${dollars(fee)} large-party fee applies to a table that holds no card` }
  const freeUntil = stated.kind === 'card_hold' ? stated.freeUntil : null
  if (fee > 0 && (freeUntil === null || freeUntil <= now)) {
    return { kind: 'never', reason: `free cancellation has ended: cancelling would cost ${dollars(fee)} per person at once` }
  }
  return { kind: 'bookable', feePerPerson: fee, freeCancellationUntil: freeUntil, aboveLimit: fee > spec.max_cancellation_fee_per_person }
}

/**
 * The spec a press is decided with: the cancellation-fee limit raised to the fee the diner
 * accepted on the page (an exact fee, never "any"), and no fee-review window, since the diner
 * saw the free-cancellation deadline before pressing.
 */
export function pressSpec(spec: Spec, acceptedFee: number | null): Spec {
  const limit = Math.max(spec.max_cancellation_fee_per_person, acceptedFee ?? 0)
  return { ...spec, max_cancellation_fee_per_person: limit, fee_review_hours: 0 }
}

/**
 * A short fingerprint of the terms the page showed (FNV-1a over every term, keys sorted): the
 * press carries it, and terms that changed since the page was drawn stop the press.
 */
export function termsFingerprint(terms: SlotTerms): string {
  const text = canonicalJson(terms)
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash.toString(16).padStart(8, '0')
}
