// The booking sub-state of a request: the offer being checked, the one booking attempt and its
// verification, and whether booking was turned off after an attempt that could not be verified.
// Its fields are stored flat in the request's state (state.ts); decide() changes them through the
// small reducers here, so each step of an attempt (started, verifying, booked, booked nothing)
// has one name.
import type { BookingBlocker } from '../platform/api'

export type { BookingBlocker }

/** Whether the card may be sent once more after a card-on-file refusal, else why not (in the alert's words). */
export type CardOnFile = { allowed: true } | { allowed: false; why: string }

export interface BookingState {
  /** When the platform was asked about a slot to book (one at a time; news meanwhile comes again later). */
  checkingOffer: number | null
  /** The one booking attempt this request may ever make, while it is being verified. */
  attempt: BookingAttempt | null
  /**
   * Set when an attempt's outcome could never be verified: the request then only alerts, so a
   * booking that lands late can never be followed by a second one.
   */
  bookingDisabled: string | null
  /**
   * Set while booking waits for the user to reconnect the platform account (the session ended or
   * was refused): the keys of the tables told "reconnect to book" meanwhile, tried again once the
   * account is back (booking/booking-waits.ts). Null while booking works. Watching never waits.
   */
  reconnectToBook: string[] | null
  /** Venues the service cannot book (a captcha, or Tock's tables), by venue id: their tables are only told (booking/booking-waits.ts). */
  unbookableVenues: Record<string, BookingBlocker>
  /**
   * An attempt whose verification window closed while the account could not be read (a session
   * that lapsed or was refused, the cloud refused, the device away): it may have landed, so it is
   * looked for on later alarms, whatever the request's status, until a read of the account shows
   * it (then it is recorded for this request) or shows none, or its table's time has passed.
   */
  unsettled: BookingAttempt | null
}

export interface AbsentReads {
  first: number
  last: number
  count: number
}

export interface BookingAttempt {
  slotKey: string
  venueId: number
  venueName: string
  day: string
  time: string
  partySize: number
  seatingType: string
  startsAt: number
  revision: number
  cancellationFee: number | null
  freeCancellationUntil: number | null
  /** The table holds a card: the book call sends struct_payment_method; else it sends none (docs/platform.md, "Booking"). */
  needsCard: boolean
  /**
   * Sent without a card, the venue may answer that it wants the card on file (a bare 402): whether
   * the terms allow booking once more with the card, else why not (booking/card-on-file.ts).
   * Decided with the rest of the attempt, before the first book call.
   */
  cardOnFile: CardOnFile
  /** The one book call with the card after a card-on-file refusal went out (never a second). */
  retriedWithCard: boolean
  /** Matching reservations already on the account before booking: never mistaken for ours. */
  preexisting: string[]
  createdAt: number
  /** What the book call answered; 'pending' if the object stopped before it answered. */
  outcome: 'pending' | 'booked' | 'refused' | 'unknown'
  refusal: string | null
  /**
   * An unclear answer in which the platform said the table is gone (HTTP 410, "no longer
   * available"): its words; null otherwise. Such an attempt can be disproved by the account.
   */
  saidGone: string | null
  /** The reads of the account that showed no such reservation: first and last time, how many (booking/booking-rules.ts). */
  absentReads: AbsentReads | null
  platformReservationId: string | null
  /** The next look at the account; verification continues on later alarms until verifyUntil. */
  checkAt: number
  verifyUntil: number
}

/** A new request has checked nothing and tried nothing. */
export const noBooking = (): BookingState => ({
  checkingOffer: null,
  attempt: null,
  bookingDisabled: null,
  reconnectToBook: null,
  unbookableVenues: {},
  unsettled: null,
})

/** The platform is asked about one slot now. */
export const offerCheckStarted = (now: number): Pick<BookingState, 'checkingOffer'> => ({ checkingOffer: now })

/** The offer check is over, whatever it found. */
export const offerCheckOver = (): Pick<BookingState, 'checkingOffer'> => ({ checkingOffer: null })

/** The attempt is decided (and stored) before the book call goes out; the offer check ends with it. */
export const attemptStarted = (attempt: BookingAttempt): Pick<BookingState, 'attempt' | 'checkingOffer'> => ({
  attempt,
  checkingOffer: null,
})

/** The attempt, changed while it is verified (the book call's answer, an absent read, the next look). */
export const attemptVerifying = (attempt: BookingAttempt): Pick<BookingState, 'attempt'> => ({ attempt })

/** Verified on the account: the attempt is over and booked. */
export const attemptBooked = (): Pick<BookingState, 'attempt'> => ({ attempt: null })

/** Nothing was booked: the attempt is over; `bookingDisabled` says whether booking goes on. */
export const attemptBookedNothing = (bookingDisabled: string | null): Pick<BookingState, 'attempt' | 'bookingDisabled'> => ({
  attempt: null,
  bookingDisabled,
})

/** The window closed before the account could be read: the attempt is looked for again at `checkAt`. */
export const attemptUnsettled = (attempt: BookingAttempt, checkAt: number): Pick<BookingState, 'unsettled'> => ({
  unsettled: { ...attempt, checkAt },
})

/** The account answered for the unsettled attempt (it shows the booking or none), or its table's time passed. */
export const attemptSettled = (): Pick<BookingState, 'unsettled'> => ({ unsettled: null })
