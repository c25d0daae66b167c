// The tables an approved auto_book request tells instead of trying, pure: while booking waits
// for the user to reconnect the platform account (watching never waits: its checks need no
// session), and at venues the service cannot book (a captcha, or Tock's tables). Either way the
// table is told once, in the next alert, with the link to book it on the platform; no call is
// made for it, so nothing loops. And the words of a definite refusal of the book call.
import type { BookingAttempt, BookingBlocker, BookingState } from '../booking-state'

/** Why a table was told rather than booked while the account needs reconnecting (the alert says "not booked automatically: …"). */
export const RECONNECT_TO_BOOK =
  'reconnect to book: the platform sign-in ended or was refused; once you reconnect in Settings, Tablewatch books again'

const BLOCKER_WHY: Record<BookingBlocker, string> = {
  recaptcha: 'Tablewatch cannot book at this restaurant (its booking asks for a captcha): book it on the platform',
  tock: "Tablewatch cannot book at this restaurant (its tables are Tock's): book it on the platform",
  concierge: 'Tablewatch cannot book at this restaurant (it books only through a concierge): book it on the platform',
  transfers: 'Tablewatch cannot book at this restaurant (its reservations are made as transfers): book it on the platform',
  other_platform: 'Tablewatch cannot book at this restaurant (it books on another platform): book it there',
  closed: 'Tablewatch cannot book at this restaurant (the platform says it is closed until a later date): check it on the platform',
}

export const blockerWhy = (blocker: BookingBlocker) => BLOCKER_WHY[blocker]

/** The keys told "reconnect to book" that reconnecting tries again: at most this many, the latest. */
const RECONNECT_KEYS_LIMIT = 200

/** Booking waits for a reconnect; these tables were told so (and are tried again once the account is back). */
export function waitingForReconnect(state: Pick<BookingState, 'reconnectToBook'>, keys: string[]): string[] {
  return [...new Set([...(state.reconnectToBook ?? []), ...keys])].slice(-RECONNECT_KEYS_LIMIT)
}

/** The venue's blocker, if the request learned one: its tables are told, never tried. */
export function blockerOf(state: Pick<BookingState, 'unbookableVenues'>, venueId: number): BookingBlocker | null {
  return state.unbookableVenues[String(venueId)] ?? null
}

/** A refusal of the book call that shows the venue cannot be booked by the service at all. */
export function blockerOfRefusal(refusal: string | null): BookingBlocker | null {
  return refusal === 'recaptcha_required' ? 'recaptcha' : null
}

/** Why the platform's definite refusal of the book call left the table unbooked, in the alert's words. */
export function refusalWhy(attempt: Pick<BookingAttempt, 'refusal' | 'cardOnFile'>): string {
  switch (attempt.refusal) {
    case 'card_on_file_required':
      return attempt.cardOnFile.allowed ? 'the restaurant wants a card on file and refused the booking with it' : attempt.cardOnFile.why
    case 'card_required':
      return 'the platform refused the card on file'
    case 'recaptcha_required':
      return BLOCKER_WHY.recaptcha
    case 'slot_gone':
      return 'the platform said the table was gone'
    default:
      return `the platform refused the booking (${attempt.refusal})`
  }
}
