// The one way a request's effects reach the user's platform account: an AccountExecutor. Which
// implementation a user gets (cloud-account.ts, device-account.ts, offline-account.ts) is chosen
// once per user and step (account-step.ts), so a handler calls these methods and never asks
// where the calls go. (executor-readiness.ts is a different question, asked by the views: whether the
// service can act for the user at all.) The executors only fetch and book; whether to book stays
// in decide().
import type { BookingDetails, BookOutcome, DetailsQuery, Outcome, PlatformReservation } from '../platform/api'
import type { Deps } from '../runtime/deps'
import type { UserSession } from './platform-session'

/** Where the user's venue-days are watched, or why they cannot be now. */
type WatchPlace =
  /** `via`: the user whose own availability objects watch (their device makes the calls); null for the shared ones. */
  | { kind: 'ok'; via: string | null }
  /** The request waits: the cloud connection is missing or needs reconnecting, or the device is offline. */
  | { kind: 'blocked'; state: 'missing' | 'reauth' | 'device_offline' }

/** Why the account was not read before booking; the request's words (src/request-aggregate/events.ts OfferAnswer) take these as they are. */
type NotRead =
  /** The user's connection is missing or was rejected; `reconnectNotice` is set the first time. */
  | { kind: 'no_connection'; reconnectNotice: number | null }
  | { kind: 'unavailable'; detail: string }
  /** The account's call budget is spent for now. */
  | { kind: 'busy' }

/** What the platform said before booking: the table's details and the account's reservations. */
type OfferReads = { kind: 'read'; details: Outcome<BookingDetails>; listed: Outcome<PlatformReservation[]> } | NotRead

interface OfferRead {
  query: DetailsQuery
  /** The device's work id prefix (one per look, so a second look asks the device again). */
  workId: string
  /**
   * The request the booking is for: from the cloud, the service-wide budget starts every
   * request's first table before any request's second at a release instant (budget/call-window.ts).
   */
  requestId?: string | undefined
  /**
   * The account's limiter: how long to wait in ms, 0 to go. The caller's (src/watching/limits.ts),
   * which executors may not import; asked only when calls would be made.
   */
  limiterWait: () => Promise<number>
}

interface BookCall {
  bookToken: string
  /** The table holds a card: send the card on file (docs/platform.md, "Booking"); else send none. */
  needsCard: boolean
  /** One per attempt: a device asked again returns its first answer, so it never books twice. */
  workId: string
}

interface BookAnswer {
  outcome: BookOutcome
  /** Set the first time the platform refused the token and its renewal (the user must reconnect). */
  reconnectNotice: number | null
}

export type AccountReservations = { kind: 'ok'; value: PlatformReservation[] } | { kind: 'unreadable'; reconnectNotice: number | null }

/** The calls a request's effects make with the user's platform account. */
export interface AccountExecutor {
  /** The user ever paired a device: their venue-days may be watched by objects of their own too. */
  readonly everPaired: boolean
  watchPlace(): Promise<WatchPlace>
  /** The details of the table to book and the account's reservations, within the account's budget. */
  readForOffer(read: OfferRead): Promise<OfferReads>
  /** The book call: never repeated here (a lost answer is `unknown`, verified later). */
  book(call: BookCall): Promise<BookAnswer>
  /** The account's reservations, to verify a booking: never capped, a booking that landed must be found. */
  reservations(workId: string): Promise<AccountReservations>
}

/** The user's cloud session for one step: opened at the first call that needs it, shared by the others. */
export interface StepSession {
  open(): Promise<UserSession | null>
  /** The platform refused the token and its renewal: drop the session and ask the user to reconnect. */
  rejected(): Promise<number | null>
}

/** What every implementation is built from. */
export interface AccountContext {
  deps: Deps
  userId: string
  everPaired: boolean
  session: StepSession
}
