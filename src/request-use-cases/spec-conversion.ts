// The edge between the API's spec and the request's own: once its schema (schemas.ts) accepted
// what a caller sent, the spec is copied field by field into the request's plain Spec
// (src/request-aggregate/spec.ts), and the views copy it back. A field the API adds reaches the request
// only when it is mapped here, and the compiler asks for every field in both directions.
import type { Spec } from '../request-aggregate/spec'
import type { RequestSpec } from './schemas'

export function specOf(input: RequestSpec): Spec {
  return {
    title: input.title,
    venue_ids: [...input.venue_ids],
    dates: [...input.dates],
    party_size: input.party_size,
    earliest_time: input.earliest_time,
    latest_time: input.latest_time,
    timezone: input.timezone,
    seating: input.seating,
    mode: input.mode,
    max_cancellation_fee_per_person: input.max_cancellation_fee_per_person,
    fee_review_hours: input.fee_review_hours,
    expires_at: input.expires_at,
    max_bookings: input.max_bookings,
  }
}

/** The spec as the API shows it (the request view, preview). */
export function specView(spec: Spec): RequestSpec {
  return {
    title: spec.title,
    venue_ids: [...spec.venue_ids],
    dates: [...spec.dates],
    party_size: spec.party_size,
    earliest_time: spec.earliest_time,
    latest_time: spec.latest_time,
    timezone: spec.timezone,
    seating: spec.seating,
    mode: spec.mode,
    max_cancellation_fee_per_person: spec.max_cancellation_fee_per_person,
    fee_review_hours: spec.fee_review_hours,
    expires_at: spec.expires_at,
    max_bookings: spec.max_bookings,
  }
}
