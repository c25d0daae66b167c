// A request spec in plain words, for the approval and request pages.

import type { Status } from '../core/status'
import { dollars } from '../lib/money'
import type { RequestView } from '../request-use-cases/schemas'

/** Both fee limits as one sentence, the way the user approves them. */
export function feeLimitsInWords(spec: Pick<RequestView, 'max_cancellation_fee_per_person' | 'fee_review_hours'>): string {
  const fee =
    spec.max_cancellation_fee_per_person === 0
      ? 'book only if the table has no cancellation or no-show fee'
      : `book only if the cancellation fee is at most ${dollars(spec.max_cancellation_fee_per_person)} per person`
  const hours = spec.fee_review_hours
  // As the API means it (fee_review_hours): the deadline lies at least this long after booking.
  const deadline =
    hours === 0
      ? 'whenever the free-cancellation deadline is'
      : `the free-cancellation deadline must be at least ${hours} hour${hours === 1 ? '' : 's'} after booking`
  return `${fee.charAt(0).toUpperCase()}${fee.slice(1)}; ${deadline}.`
}

export const SEATING_WORDS: Record<RequestView['seating'], string> = {
  any: 'Any seating',
  indoor: 'Indoors',
  outdoor: 'Outdoors',
}

export const MODE_WORDS: Record<RequestView['mode'], string> = {
  alert_only: 'Alert me when a table appears (I book it myself)',
  auto_book: 'Book a matching table for me',
}

/** Status badges: never "booked" unless the platform confirmed it. */
export const STATUS_WORDS: Record<Status, string> = {
  needs_approval: 'Waiting for your approval',
  active: 'Watching',
  awaiting_verification: 'Being verified',
  confirmed: 'Booked',
  expired: 'Expired',
  stopped: 'Stopped',
  revoked: 'Revoked',
}

export function people(n: number): string {
  return n === 1 ? '1 person' : `${n} people`
}
