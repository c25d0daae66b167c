// What the user asked a request to watch for and book, as the request's own plain data. The API
// checks a caller's spec with its schema (src/request-use-cases/schemas.ts) and hands the request only
// this (src/request-use-cases/spec-conversion.ts maps it), so the reducer, the booking rules and the object know no
// schema library, default or OpenAPI name: they change when the request's life does.
// The field names are the ones every stored request already has (the object's state, the D1
// index, the revisions the owner saw), so no stored request needs upgrading for this type.
import type { Window } from '../db/requests'
import { instantOf } from '../lib/zoned-time'
import type { WatchedSpec } from '../watching/news'

type Mode = 'alert_only' | 'auto_book'

/** Venues, dates, time window, party and seating (what watching reads), and the booking limits. */
export interface Spec extends WatchedSpec {
  /** The user's name for it, shown on pages and in alerts. */
  title: string
  /** alert_only alerts on every matching table; auto_book books one, once the owner approved. */
  mode: Mode
  /** In US dollars per person: a table whose cancellation or no-show fee is higher is never booked. */
  max_cancellation_fee_per_person: number
  /** Free cancellation must last at least this many hours after booking. */
  fee_review_hours: number
  /** When watching stops: ISO 8601 with its offset, as the user gave it (the state keeps the instant). */
  expires_at: string
  /** A request books at most one table. */
  max_bookings: 1
}

/** Each requested date's window [earliest, latest] as instants in the request's time zone. */
export function windowsOf(spec: Pick<Spec, 'dates' | 'earliest_time' | 'latest_time' | 'timezone'>): Window[] {
  return spec.dates.map((date) => [instantOf(date, spec.earliest_time, spec.timezone), instantOf(date, spec.latest_time, spec.timezone)])
}
