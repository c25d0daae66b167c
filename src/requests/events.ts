// The vocabulary of decide(): what can happen to a request (events) and what it asks the world
// to do in return (effects). Both are plain data: an effect is carried out by effects.ts,
// and what the platform answered comes back as the next event. Nothing here holds a secret.

import type { DigestTable } from '../alerts/digest'
import type { DinnerFacts } from '../alerts/dinner-words'
import type { BookingDetails, BookOutcome, PlatformReservation, Slot } from '../platform/api'
import type { RequestSpec } from './schemas'
import type { BookingAttempt, RequestState } from './state'

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
 * a user whose paired device makes the calls (issue 17), one of that user's own (`via` the user).
 */
export function availabilityObjectName(key: string, via: string | null): string {
  return via ? `${key}@${via}` : key
}

/** An Idempotency-Key of an update (scoped to this request and its owner) and its body hash. */
export interface UpdateKey {
  key: string
  bodyHash: string
}

/** A matching slot an approved auto_book request will try, and the ones to try after it. */
export interface Offer {
  slot: Slot
  venueName: string
  /** The venue's page on the platform, for the alert's link. */
  venuePage: string | null
  startsAt: number
  revision: number
  rest: { slot: Slot; startsAt: number }[]
}

export type OfferAnswer =
  | { kind: 'ok'; details: BookingDetails; held: PlatformReservation[] }
  /** The user's connection is missing or was rejected; `reconnectNotice` is set the first time. */
  | { kind: 'no_connection'; reconnectNotice: number | null }
  | { kind: 'gone' }
  | { kind: 'unavailable'; detail: string }
  /** The account's call budget is spent for now (src/watching/limits.ts). */
  | { kind: 'busy' }

export type VerifyAnswer =
  | { kind: 'found'; reservationId: string }
  /** The account was read and does not hold the booking. */
  | { kind: 'absent' }
  | { kind: 'unreadable'; reconnectNotice: number | null }

export type RequestEvent =
  | { kind: 'created' }
  | { kind: 'approve'; revision: number }
  | { kind: 'update'; revision: number; spec: RequestSpec; expiresAt: number; idem: UpdateKey }
  | { kind: 'stop' }
  | { kind: 'revoke'; reason: string }
  /** The assistant reconnected: its earlier grants' requests belong to the new one. */
  | { kind: 'transfer_owner'; from: string[]; to: string }
  /** Every new matching slot of one availability poll of one venue-day. */
  | { kind: 'slots_seen'; venueDay: VenueDay; venueName: string; venuePage: string | null; checkedAt: number; slots: Slot[] }
  /** An availability object's checks started failing (problem) or work again (null). */
  | { kind: 'checks'; venueDay: VenueDay; venueName: string; problem: CheckProblem | null }
  /**
   * What the user's platform connection is, as an effect found it or the user changed it;
   * `device_offline`: the user books from a paired device and none is connected (issue 17).
   * `subscribed`: the effect that found it working has registered the watch already.
   * `rewatch`: the user changed where platform calls run; an active request subscribes again there.
   */
  | {
      kind: 'connection'
      state: 'ok' | 'missing' | 'reauth' | 'device_offline'
      reconnectNotice: number | null
      subscribed?: boolean
      rewatch?: 'cloud' | 'user_device'
    }
  /** The platform's answers before booking (details and the account's reservations). */
  | { kind: 'offer_checked'; offer: Offer; answer: OfferAnswer }
  | { kind: 'booking_answer'; attemptAt: number; outcome: BookOutcome; reconnectNotice: number | null }
  | { kind: 'verification_answer'; attemptAt: number; answer: VerifyAnswer }
  | { kind: 'alarm' }
  /** The digest went out (or was a retry of one that had): these tables and restaurant-dates are told. */
  | { kind: 'digest_sent'; keys: string[]; days: string[]; at: number; more?: Record<string, number> }
  /** The per-request gap holds the digest back until then. */
  | { kind: 'digest_held'; until: number }

/** Why a venue-day's checks fail (src/watching/platform-failures.ts): for the trace, and the status reason if any. */
export interface CheckProblem {
  /** Completes "Could not check <venue> on <day>: …". */
  says: string
  /** A block or a refused API key; null leaves the status reason alone. */
  reason: string | null
}

/** What the availability objects tell a subscriber. */
export type Heard = Extract<RequestEvent, { kind: 'slots_seen' | 'checks' }>

/** A table as alerts name it. */
export type Table = Pick<Slot, 'venueId' | 'day' | 'time' | 'seatingType'>

/** What to tell the user; src/alerts/alerts.ts words it (and a later digest layer may group it). */
export type Notice =
  /** One digest: every table of a poll (or of several, within the caps), grouped when worded. */
  | { type: 'digest'; tables: DigestTable[]; more?: Record<string, number> }
  | { type: 'booked'; booking: BookedTable }
  | { type: 'unverified'; venueName: string; day: string; time: string }
  | { type: 'reconnect'; connectedAt: number }
  /** An auto_book request (or a new revision of one) waits for the user's approval. */
  | { type: 'approval_needed'; revision: number; expiresAt: number; timeZone: string }
  /** An unapproved request expires in a day. */
  | { type: 'expires_soon'; revision: number; expiresAt: number; timeZone: string }
  /** The request ended without a table: it expired, or its token or connection was revoked. */
  | { type: 'ended'; status: 'expired' | 'revoked'; reason: string }
  /** The platform blocks the service's checks (or refuses its key): watching is paused. */
  | { type: 'checks_blocked'; venueName: string; day: string; says: string; at: number }

/** What a confirmed booking's notice tells: the table, and what cancelling would cost. */
export interface BookedTable {
  venueName: string
  day: string
  time: string
  timeZone: string
  partySize: number
  seatingType: string
  /** Per person, in the platform's currency; null: none. */
  cancellationFee: number | null
  freeCancellationUntil: number | null
}

export interface Recipient {
  requestId: string
  userId: string
  partySize: number
  /** The request's zone (its venues'), for the times its alerts write; absent in effects stored before it was kept. */
  timeZone?: string
  /** Which dinner (title, restaurants, dates, window), so every notice names it; absent in older effects. */
  dinner?: DinnerFacts
}

/** The fields of the D1 index row that mirror the object. */
export type MirrorRow = Pick<RequestState, 'id' | 'status' | 'revision' | 'spec' | 'expiresAt' | 'updatedAt'>

/** Everything the availability objects need to watch for this request. */
export interface WatchTarget {
  requestId: string
  userId: string
  spec: RequestSpec
  expiresAt: number
  venueDays: VenueDay[]
}

export type Effect =
  | { kind: 'notify'; to: Recipient; notice: Notice }
  /** Send the waiting digest, unless the user's gap holds it (the runner reads the user's caps). */
  | {
      kind: 'send_digest'
      to: Recipient
      tables: DigestTable[]
      /** Tables beyond the listed ones, counted per restaurant-date (alerts/digest.ts). */
      more?: Record<string, number>
      lastSentAt: number | null
      knownDays: string[]
    }
  | { kind: 'mirror'; row: MirrorRow; specChanged: boolean }
  | { kind: 'subscribe'; target: WatchTarget }
  | { kind: 'unsubscribe'; requestId: string; userId: string; venueDays: VenueDay[] }
  | { kind: 'check_offer'; userId: string; spec: RequestSpec; offer: Offer }
  | { kind: 'book'; userId: string; attempt: BookingAttempt; bookToken: string }
  | { kind: 'verify'; request: Pick<RequestState, 'id' | 'userId' | 'principalId'>; attempt: BookingAttempt }

/** Effects kept in the object's outbox until done: losing one to a crash would lose an alert or a watch. */
export function mustComplete(effect: Effect): boolean {
  return (
    effect.kind === 'notify' ||
    effect.kind === 'send_digest' ||
    effect.kind === 'mirror' ||
    effect.kind === 'subscribe' ||
    effect.kind === 'check_offer'
  )
}
