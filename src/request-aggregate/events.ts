// The vocabulary of decide(): what can happen to a request (events) and what it asks the world
// to do in return (effects). Both are plain data: an effect is carried out by effects.ts,
// and what the platform answered comes back as the next event. Nothing here holds a secret.

import type { DigestTable, Notice, Recipient } from '../alerts/notice'
import type { BookingDetails, BookOutcome, PlatformReservation, Slot } from '../platform/api'
import type { Heard, VenueDay } from '../watching/news'
import type { BookingAttempt, BookingBlocker } from './booking-state'
import type { Spec } from './spec'
import type { RequestState } from './state'

// The availability objects' vocabulary is theirs (src/watching/news.ts); the request's files take it from here with the rest.
export { availabilityName, availabilityObjectName, type Heard, type VenueDay } from '../watching/news'

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
  /** The diner pressed "Book this table" for this slot (decide-press.ts); absent for auto_book's own offers. */
  pressed?: true
}

export type OfferAnswer =
  | { kind: 'ok'; details: BookingDetails; held: PlatformReservation[] }
  /** The user's connection is missing or was rejected; `reconnectNotice` is set the first time. */
  | { kind: 'no_connection'; reconnectNotice: number | null }
  | { kind: 'gone' }
  | { kind: 'unavailable'; detail: string }
  /** The account's call budget is spent for now (src/watching/limits.ts). */
  | { kind: 'busy' }
  /** The venue cannot be booked by the service (the catalog knows): nothing was called. */
  | { kind: 'unbookable'; blocker: BookingBlocker }

export type VerifyAnswer =
  | { kind: 'found'; reservationId: string }
  /** The account was read and does not hold the booking. */
  | { kind: 'absent' }
  | { kind: 'unreadable'; reconnectNotice: number | null }

export type RequestEvent =
  | { kind: 'created' }
  | { kind: 'approve'; revision: number }
  | { kind: 'update'; revision: number; spec: Spec; expiresAt: number; idem: UpdateKey }
  | { kind: 'stop' }
  | { kind: 'revoke'; reason: string }
  /** The assistant reconnected: its earlier grants' requests belong to the new one. */
  | { kind: 'transfer_owner'; from: string[]; to: string }
  /** What an availability object tells its subscribers (src/watching/news.ts). */
  | Heard
  /**
   * What the user's platform connection is, as an effect found it or the user changed it;
   * `device_offline`: the user books from a paired device and none is connected.
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
  /** `bookToken`: the token the call used, for the one book call with the card a card-on-file refusal may allow (never stored). */
  | { kind: 'booking_answer'; attemptAt: number; outcome: BookOutcome; reconnectNotice: number | null; bookToken?: string }
  | { kind: 'verification_answer'; attemptAt: number; answer: VerifyAnswer }
  | { kind: 'alarm' }
  /**
   * The diner pressed "Book this table" on the service's page: the approval of that one told
   * table, with the terms the page showed (their fingerprint) and the fee accepted there, if any.
   */
  | { kind: 'press'; slotKey: string; terms: string; acceptedFee: number | null }
  /**
   * The diner switched the request on its page between "alert me" and "book for me"; to booking,
   * the page showed the exact spec of `revision` and the press approves it (decide-mode.ts).
   */
  | { kind: 'diner_mode'; revision: number; mode: 'alert_only' | 'auto_book' }
  /**
   * The digest went out (or was a retry of one that had): these tables at these restaurant-dates
   * are told; `repeats` came back within the user's gap and are left out, untold.
   */
  | { kind: 'digest_sent'; keys: string[]; days: string[]; at: number; more?: Record<string, number>; repeats?: string[] }

/** The fields of the D1 index row that mirror the object. */
type MirrorRow = Pick<RequestState, 'id' | 'status' | 'revision' | 'spec' | 'expiresAt' | 'updatedAt'>

/** Everything the availability objects need to watch for this request. */
interface WatchTarget {
  requestId: string
  userId: string
  spec: Spec
  expiresAt: number
  venueDays: VenueDay[]
}

export type Effect =
  | { kind: 'notify'; to: Recipient; notice: Notice }
  /** Send the waiting digest, less the repeats the user's gap leaves out (the runner reads the user's caps). */
  | {
      kind: 'send_digest'
      to: Recipient
      tables: DigestTable[]
      /** Tables beyond the listed ones, counted per restaurant-date (alerts/digest.ts). */
      more?: Record<string, number>
    }
  | { kind: 'mirror'; row: MirrorRow; specChanged: boolean }
  | { kind: 'subscribe'; target: WatchTarget }
  | { kind: 'unsubscribe'; requestId: string; userId: string; venueDays: VenueDay[] }
  /** `requestId`: whose booking it starts (absent in effects stored before it was sent). */
  | { kind: 'check_offer'; userId: string; spec: Spec; offer: Offer; requestId?: string }
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
