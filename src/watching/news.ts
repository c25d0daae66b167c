// What an availability object and its subscribers say to each other, as plain data: the subject
// (a venue-day), the object's name, and the news it pushes to each subscribing request (new slots,
// checks that fail or work again). Here, not in the request's events, so the watching side never
// imports the request; src/request-aggregate/events.ts takes these into its RequestEvent.
import type { Slot } from '../platform/api'
import type { WantedSeating } from '../platform/seating'

/** One availability object's subject: a venue, a day, a party size. */
export interface VenueDay {
  venueId: number
  day: string
  partySize: number
}

export function availabilityName(q: VenueDay): string {
  return `${q.venueId}:${q.day}:${q.partySize}`
}

/**
 * The availability object that checks a venue-day: the shared one (the service's calls), or, for
 * a user whose paired device makes the calls, one of that user's own (`via` the user).
 */
export function availabilityObjectName(key: string, via: string | null): string {
  return via ? `${key}@${via}` : key
}

/** Why a venue-day's checks fail (src/watching/platform-failures.ts): for the trace, and the status reason if any. */
export interface CheckProblem {
  /** Completes "Could not check <venue> on <day>: …". */
  says: string
  /** A block or a refused API key; null leaves the status reason alone. */
  reason: string | null
}

/** Every new matching slot of one availability poll of one venue-day. */
interface SlotsSeen {
  kind: 'slots_seen'
  venueDay: VenueDay
  venueName: string
  venuePage: string | null
  checkedAt: number
  slots: Slot[]
}

/** An availability object's checks started failing (problem) or work again (null). */
interface ChecksNews {
  kind: 'checks'
  venueDay: VenueDay
  venueName: string
  problem: CheckProblem | null
}

/** What the availability objects tell a subscriber. */
export type Heard = SlotsSeen | ChecksNews

/** What watching reads of a request's spec (fields of the request's Spec, src/request-aggregate/spec.ts). */
export interface WatchedSpec {
  venue_ids: number[]
  dates: string[]
  party_size: number
  earliest_time: string
  latest_time: string
  timezone: string
  seating: WantedSeating
}
