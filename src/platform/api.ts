// What the service needs from the reservation platform, and every way a call can end.
// One implementation (client.ts) speaks the platform's wire format; failures come back as
// tagged outcomes, never as thrown strings, so callers switch on `kind`.

export interface Account {
  displayName: string
  /** The default card on file; null when the account has none (booking card-hold slots fails). */
  paymentMethodId: number | null
}

export interface VenueHit {
  venueId: number
  name: string
  city: string
  neighborhood: string
}

export interface ReleaseRule {
  /** Tables for day D open on D − daysInAdvance … */
  daysInAdvance: number
  /** … at this venue-local wall-clock time (HH:MM, 24 h). */
  time: string
}

export interface VenueDetails extends VenueHit {
  /** IANA name; legacy names the platform sends (EST5EDT …) are mapped, see time-zone.ts. */
  timeZone: string
  urlSlug: string | null
  /** Null when the platform states no release time of day (see release.ts). */
  release: ReleaseRule | null
}

export interface Slot {
  venueId: number
  /** The platform's config token, passed to bookingDetails. */
  configId: string
  day: string // YYYY-MM-DD
  time: string // HH:MM, venue-local
  /** The platform's free-text seating type ("Dining Room", "Patio" …); see seating.ts. */
  seatingType: string
  partyMin: number
  partyMax: number
}

export interface BookingDetails {
  /** Short-lived (minutes) token that book() needs. */
  bookToken: string
  /**
   * Late-cancellation / no-show fee per person in USD. 0 when the platform states none; null when
   * it holds a card but states no amount (unknown: treat as above any limit).
   */
  cancellationFeePerPerson: number | null
  /**
   * Instant (epoch ms) until which cancelling is free. Null when the platform gives no deadline:
   * harmless when the fee is 0, otherwise treat as "no free cancellation".
   */
  freeCancellationUntil: number | null
  /** Money is taken up front (deposit). Unrecognised up-front charges also count as a deposit. */
  deposit: boolean
  /** The whole meal is paid when booking. */
  prepaid: boolean
  /** A ticketed experience or event. */
  ticketed: boolean
}

export interface PlatformReservation {
  reservationId: string
  venueId: number
  day: string // YYYY-MM-DD
  time: string // HH:MM, venue-local
  partySize: number
  seatingType: string
}

export type Failure =
  /** The platform rejected the user token (419/401), or the login credentials. */
  | { kind: 'reauth' }
  /** 429: back off at least this long; reads are not retried on 429. */
  | { kind: 'rate_limited'; retryAfterMs: number }
  /** 5xx, timeout, network error, or an answer we could not read, after bounded retries. */
  | { kind: 'unavailable'; detail: string }
  | { kind: 'not_found' }

export type Outcome<T> = { kind: 'ok'; value: T } | Failure

export type BookOutcome =
  | { kind: 'booked'; reservationId: string }
  /** A definite refusal: nothing was booked. */
  | { kind: 'refused'; reason: 'card_required' | 'slot_gone' | 'conflict' }
  | { kind: 'reauth' }
  | { kind: 'rate_limited'; retryAfterMs: number }
  /** 5xx, timeout or a lost answer: a reservation may exist. Verify with listReservations. */
  | { kind: 'unknown'; detail: string }

export interface FindQuery {
  venueId: number
  day: string
  partySize: number
}

export interface DetailsQuery {
  configId: string
  day: string
  partySize: number
}

export interface BookCommand {
  bookToken: string
  paymentMethodId: number | null
}

export interface Platform {
  /** Password login; a wrong password is `reauth`. The returned token is a secret. */
  login(email: string, password: string): Promise<Outcome<Account & { authToken: string }>>
  /** Whether the token still works, and the card on file. */
  checkAccount(authToken: string): Promise<Outcome<Account>>
  searchVenues(query: string): Promise<Outcome<VenueHit[]>>
  venueDetails(venueId: number): Promise<Outcome<VenueDetails>>
  /** Open slots for the party on that day; an empty list when nothing is open. */
  findSlots(query: FindQuery): Promise<Outcome<Slot[]>>
  bookingDetails(authToken: string, query: DetailsQuery): Promise<Outcome<BookingDetails>>
  /** Never retried: a lost answer is `unknown`. */
  book(authToken: string, command: BookCommand): Promise<BookOutcome>
  /** The account's upcoming reservations. */
  listReservations(authToken: string): Promise<Outcome<PlatformReservation[]>>
}

export const ok = <T>(value: T): Outcome<T> => ({ kind: 'ok', value })
