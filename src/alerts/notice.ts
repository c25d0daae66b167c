// What a request tells its user, as plain data: the notices, the recipient (which request, which
// dinner), the tables they name. The request's decide() files produce them (src/request-aggregate/events.ts
// carries them in its effects); the files beside this one word them. This vocabulary sits in
// alerts, below the requests, so the words never import the request back.
import type { Slot } from '../platform/api'

/** A table as alerts name it. */
export type Table = Pick<Slot, 'venueId' | 'day' | 'time' | 'seatingType'>

export interface DigestTable extends Table {
  venueName: string
  venuePage: string | null
  /** The fee or deposit in words ("deposit $50"), null when booking costs nothing up front. */
  fee: string | null
  /** Why an auto_book request did not book it, if it could have. */
  note: string | null
  /** The slot's key (match.ts): a table is told by it once, and again only after it went and came back. */
  key: string
  /** A table told before that came back: when its last alert went out (the gap counts from it). */
  toldAt?: number
  /** Not booked only because the platform account needs reconnecting: the alert links to the reconnect form. */
  waitsFor?: 'reconnect'
  /** The service could book it at a press (its terms allow it): the alert offers "Book this table". */
  bookable?: true
}

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

/** What a notice needs of its request to name the dinner (kept in the recipient of each effect). */
export interface DinnerFacts {
  title: string | null
  venueIds: number[]
  dates: string[]
  earliest: string
  latest: string
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

/** The "Book this table" page of one told table of a request. */
export function bookTableUrl(baseUrl: string, requestId: string, slotKey: string): string {
  return `${baseUrl}/requests/${encodeURIComponent(requestId)}/book?${new URLSearchParams({ table: slotKey })}`
}

/** The approval page of a request's revision: every approval notice and the request's view link to it. */
export function actionUrl(baseUrl: string, state: { id: string; revision: number }): string {
  return `${baseUrl}/requests/${state.id}/approve?revision=${state.revision}`
}
