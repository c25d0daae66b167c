// What the service needs from the reservation platform, and every way a call can end.
// One implementation (client.ts) speaks the platform's wire format; failures come back as
// tagged outcomes, never as thrown strings, so callers switch on `kind`.
import type { BlockSignal } from './blocks'

/**
 * The CDN's cookies a platform session holds (`visid_incap_*`, `incap_ses_*`, `nlbi_*`), by name,
 * each value exactly as Set-Cookie gave it. They are sent back on that session's calls, as a
 * browser sends them (docs/platform.md, "The CDN"), and updated in place from every answer that
 * sets them, as a browser's cookie jar is. Stored sealed with the tokens.
 */
export type CdnCookies = Record<string, string>

/** Where the platform put the refresh token: the `production_refresh_token` cookie, or a `refresh_token` body field. */
export type RefreshVia = 'cookie' | 'body'

/** What a sign-in and a refresh hand out. The tokens and cookies are secrets: never logged, stored sealed. */
export interface PlatformSession {
  authToken: string
  /** Null when the platform gave none (a session from a code sign-in may have none): the session then ends at `expiresAt`. */
  refreshToken: string | null
  /** How the refresh token came (docs/platform.md, "Sessions and refresh"); null without one. */
  refreshVia: RefreshVia | null
  /** When the refresh token stops working (epoch ms: its cookie's Max-Age/Expires, or its JWT `exp`); null when not stated. */
  refreshExpiresAt: number | null
  /** The auth token's JWT `exp` (epoch ms); null when it cannot be read. */
  expiresAt: number | null
  cdnCookies: CdnCookies
}

/** What a user-token call needs: the auth token and the session's CDN cookies (updated in place by the call). */
export interface UserCredentials {
  authToken: string
  cdnCookies: CdnCookies
}

/** What a refresh needs: the refresh token and the session's CDN cookies (updated in place by the call). */
export interface RefreshCredentials {
  refreshToken: string
  cdnCookies: CdnCookies
}

/**
 * Why the platform refused a sign-in, in words a page can explain (docs/platform.md, "Sign-in").
 * wrong_password: also what an account without a password may get, unless the platform says so
 * (then no_password). wrong_email: the challenge's email is not the account's. code_expired: also
 * a challenge that is no longer valid (start again). captcha_required: the platform wants a
 * captcha the service cannot solve. invalid_number: the platform would not text that number.
 */
export type SignInRefusal =
  | 'invalid_number'
  | 'wrong_password'
  | 'no_password'
  | 'wrong_code'
  | 'code_expired'
  | 'too_many_tries'
  | 'captcha_required'
  | 'wrong_email'

export type SignInOutcome<T> = Outcome<T> | { kind: 'refused'; reason: SignInRefusal }

/**
 * The browser a code sign-in speaks for. The code is tied to the device token that asked for it:
 * keep the sender (sealed: its cookies are the CDN's session) until the code is used, and use the
 * same one for sendCode, checkCode and answerChallenge. Make one with newCodeSender() (session.ts).
 */
export interface CodeSender {
  deviceToken: string
  cdnCookies: CdnCookies
}

/**
 * The second step of a code sign-in: the platform asks for the account's email. `claimToken`: the
 * `mobile_claim.claim_token` some answers carry, sent back with the email when present.
 */
export interface CodeChallenge {
  challengeId: string
  claimToken: string | null
}

export type CodeVerdict = { kind: 'signed_in'; session: Account & PlatformSession } | { kind: 'challenge'; challenge: CodeChallenge }

export interface Account {
  displayName: string
  /** The default card on file; null when the account has none (booking card-hold slots fails). */
  paymentMethodId: number | null
}

/**
 * Why the service cannot book a venue at all (docs/platform.md, "Venues and search"): its booking
 * asks for a reCAPTCHA (`feature_recaptcha`), its tables are Tock's (`is_tock_inventory`), it books
 * through a concierge (`gda_concierge_booking`), its reservations are transfers
 * (`requires_reservation_transfers`), it books on another platform (`source.name` set), or it is
 * closed until a date still to come (`reopen.date`).
 */
export type BookingBlocker = 'recaptcha' | 'tock' | 'concierge' | 'transfers' | 'other_platform' | 'closed'

export interface VenueHit {
  venueId: number
  name: string
  city: string
  neighborhood: string
  /** Null when the platform states neither flag: bookable as far as it says. */
  bookingBlocker: BookingBlocker | null
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
  /** url_slug: the venue's part of its web page (web-pages.ts). */
  urlSlug: string | null
  /** location.url_slug: the city's part of the venue's web page ("ny", "new-york-ny"). */
  citySlug: string | null
  /** "123 Main St, New York, NY", or null when the platform states no street address. */
  address: string | null
  /** Null when the platform states no release time of day (see release.ts). */
  release: ReleaseRule | null
}

/**
 * A slot's money terms exactly as /4/find states them: the slot's `payment` object and its venue
 * template (docs/platform.md, "Money terms"). Nothing is interpreted here; null means the
 * platform did not state the field. The booking decision (src/request-aggregate/booking/booking-decision.ts)
 * reads these, and treats anything missing as a reason not to book.
 */
export interface SlotTerms {
  /** The slot carried a `payment` object (the platform always sends one: docs/platform.md, "Money terms"). */
  paymentStated: boolean
  /** payment.is_paid: a card is needed to book. */
  isPaid: boolean | null
  /** payment.deposit_fee: money taken up front (deposit or prepayment). */
  depositFee: number | null
  /** payment.cancellation_fee: the late-cancellation / no-show fee (whether per person is unknown: docs/platform.md, "Money terms"). */
  cancellationFee: number | null
  /** payment.secs_cancel_cut_off: free cancellation ends this many seconds before the reference. */
  secsCancelCutOff: number | null
  /** payment.time_cancel_cut_off, "HH:MM:SS": when set, the reference is the service day at this time. */
  timeCancelCutOff: string | null
  /** payment.service_charge, as sent (a string in the evidence); shown, never decided on. */
  serviceCharge: string | null
  /**
   * payment.is_add_on_required (or payment.requires_payment): the table comes with a paid add-on,
   * whatever the fee fields say; read as prepaid (docs/platform.md, "Money terms"). Null: not stated.
   */
  addOnRequired: boolean | null
  /** templates[slot.template.id]; null when the slot names no template or the reply lacks it. */
  template: TemplateTerms | null
}

export interface TemplateTerms {
  /** templates[…].is_event: a ticketed experience. */
  isEvent: boolean | null
  isPaid: boolean | null
  depositFee: number | null
  cancellationFee: number | null
  /** content["en-us"].need_to_know.body: free text that often states the release rule, sometimes a fee (docs/platform.md, "Money terms"). */
  needToKnow: string | null
  /** large_party_size_cancel: from this party size on, the large-party fee applies ([idx 37355943101]; docs/platform.md, "Money terms"). */
  largePartySize: number | null
  /** large_party_cancellation_fee: the cancellation fee for a large party (per person UNCERTAIN, like the other fee). */
  largePartyFee: number | null
}

export interface Slot {
  venueId: number
  /** The platform's config token, passed to bookingDetails. */
  configId: string
  /** The service day the slot was found for (YYYY-MM-DD). */
  day: string
  /** The calendar day it starts: the next one for a table after midnight of a late service (docs/platform.md, "Availability"). */
  startDate: string
  time: string // HH:MM, venue-local, on startDate
  /** The platform's free-text seating type ("Dining Room", "Patio" …); see seating.ts. */
  seatingType: string
  partyMin: number
  partyMax: number
  terms: SlotTerms
}

/**
 * What /3/details says, used only for the book token and as a cross-check of the find slot's
 * terms (docs/platform.md, "Money terms"): the details reply's `payment` is `{config, amounts}` and names no kind of charge.
 */
export interface BookingDetails {
  /** Short-lived (minutes) token that book() needs. */
  bookToken: string
  /** cancellation.fee.amount; null when the reply states no fee. */
  cancellationFee: number | null
  /** cancellation.fee.date_cut_off, else refund.date_cut_off (epoch ms); null when none. */
  freeCancellationUntil: number | null
  /** payment.amounts: what booking charges at once ([idx 53104099941]); null when the reply has no `amounts`. */
  amounts: ChargedAmounts | null
}

/** /3/details payment.amounts, as stated; null where a field is missing (docs/platform.md, "Money terms"). */
export interface ChargedAmounts {
  reservationCharge: number | null
  resyFee: number | null
  serviceFee: number | null
  tax: number | null
  total: number | null
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
  /** The platform rejected the user token (419/401) on a user-token call, or the refresh token. */
  | { kind: 'reauth' }
  /**
   * The platform refused a call that sends only the API key (419/401 on find, search, venue,
   * config): the key is wrong or was rotated. An operator problem, never the user's (docs/platform.md, "Requests and headers").
   */
  | { kind: 'operator_fault'; detail: string }
  /**
   * A firewall or CDN answered instead of the API (see blocks.ts): back off much longer. On a
   * sign-in or refresh from the service's servers: the platform does not let them sign in.
   */
  | { kind: 'blocked'; signal: BlockSignal }
  /** 429: back off at least this long; reads are not retried on 429. */
  | { kind: 'rate_limited'; retryAfterMs: number }
  /** 5xx, timeout, network error, or an answer we could not read, after bounded retries. */
  | { kind: 'unavailable'; detail: string }
  | { kind: 'not_found' }

export type Outcome<T> = { kind: 'ok'; value: T } | Failure

/**
 * card_required: a 402 to a book that sent the card (the card or the charge was refused).
 * card_on_file_required: a bare 402 to a book sent without a card: the venue wants the card on
 * file even for a free table (docs/platform.md, "Booking"); never retried by the client.
 * recaptcha_required: the venue's booking asks for a reCAPTCHA. tock_inventory: the venue's tables
 * are Tock's. slot_gone: a 404.
 */
type BookRefusal = 'card_required' | 'card_on_file_required' | 'recaptcha_required' | 'tock_inventory' | 'slot_gone'

export type BookOutcome =
  | { kind: 'booked'; reservationId: string }
  /** A definite refusal: nothing was booked. (A 412 is never one: it can mean "already held": docs/platform.md, "Booking".) */
  | { kind: 'refused'; reason: BookRefusal }
  | { kind: 'reauth' }
  | { kind: 'rate_limited'; retryAfterMs: number }
  /**
   * 5xx, timeout, a lost answer, a 412 (the account may already hold the table) or a block: a
   * reservation may exist. Verify with listReservations. `saidGone`: the platform said the table
   * is gone (a 410, or "no longer available" in the body) without a definite refusal; the account
   * may still disprove the booking (docs/decisions/booking.md).
   */
  | { kind: 'unknown'; detail: string; saidGone?: boolean }

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

/** A venue's days for one party size (GET /4/venue/calendar; docs/platform.md, "Calendar and release"); dates inclusive, YYYY-MM-DD. */
interface CalendarQuery {
  venueId: number
  partySize: number
  startDate: string
  endDate: string
}

/**
 * What the calendar says of a day: `unknown` is a word the client does not know (the caller
 * treats it as "ask /4/find", never as "nothing open").
 */
export type CalendarStatus = 'available' | 'sold_out' | 'closed' | 'not_available' | 'unknown'

export interface VenueCalendar {
  /** By date; a date the platform left out is missing here too. */
  days: Record<string, CalendarStatus>
  /** The last bookable day (moves forward at release time); null when not stated. */
  lastCalendarDay: string | null
}

interface BookCommand {
  bookToken: string
  paymentMethodId: number | null
}

export interface Platform {
  /**
   * Password sign-in: POST /4/auth/password, and /3/auth/password only when /4 answers 404. A
   * refused password is `refused` (wrong_password, no_password, too_many_tries, captcha_required).
   */
  login(email: string, password: string): Promise<SignInOutcome<Account & PlatformSession>>
  /** Asks the platform to text a code to the number (POST /4/auth/mobile); `sender` is kept for the next steps. */
  sendCode(mobileNumber: string, sender: CodeSender): Promise<SignInOutcome<{ sent: true }>>
  /** The code the diner typed (POST /4/auth/mobile with `code`): a session, or the challenge that asks for the account's email. */
  checkCode(mobileNumber: string, code: string, sender: CodeSender): Promise<SignInOutcome<CodeVerdict>>
  /** The account's email for the challenge (POST /4/auth/challenge): the session. */
  answerChallenge(challenge: CodeChallenge, email: string, sender: CodeSender): Promise<SignInOutcome<Account & PlatformSession>>
  /**
   * A new session for the refresh token (POST /3/auth/refresh, the token sent both as the
   * cookie and as the form field); `reauth` when the platform no longer accepts it. One attempt:
   * a refresh token may work only once. The new session keeps whichever refresh token the
   * platform returned, else the one sent.
   */
  refresh(credentials: RefreshCredentials): Promise<Outcome<PlatformSession>>
  /** Whether the token still works, and the card on file. */
  checkAccount(credentials: UserCredentials): Promise<Outcome<Account>>
  searchVenues(query: string): Promise<Outcome<VenueHit[]>>
  venueDetails(venueId: number): Promise<Outcome<VenueDetails>>
  /** The venue's status per day for the party: the cheap, key-only pre-check before findSlots (docs/platform.md, "Calendar and release"). */
  venueCalendar(query: CalendarQuery): Promise<Outcome<VenueCalendar>>
  /** Open slots for the party on that day; an empty list when nothing is open. */
  findSlots(query: FindQuery): Promise<Outcome<Slot[]>>
  bookingDetails(credentials: UserCredentials, query: DetailsQuery): Promise<Outcome<BookingDetails>>
  /** Never retried: a lost answer is `unknown`. Its timeout allows the ~12 s public clients saw at drops. */
  book(credentials: UserCredentials, command: BookCommand): Promise<BookOutcome>
  /** The account's upcoming reservations. */
  listReservations(credentials: UserCredentials): Promise<Outcome<PlatformReservation[]>>
}

export const ok = <T>(value: T): Outcome<T> => ({ kind: 'ok', value })

/** What operators must see: a block, or the platform refusing the service's API key. */
export type PlatformProblem =
  | { kind: 'blocked'; signal: BlockSignal; path: string }
  | { kind: 'operator_fault'; status: number; path: string }
