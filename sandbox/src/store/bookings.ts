// Book tokens, bookings and the reservation list, with the platform's refusals:
// 404 slot gone (or unknown book token), 412 the account already holds that table time (with
// `specs`; also a retried book of a table the same token booked) or the book token expired,
// 402 a card is needed (a hold or a charge at booking) and none (or the wrong one) was given.
import { instantOf } from '../clock'
import { isOffered } from '../inventory'
import type { ConfigRef, Policy, SandboxSlot, SandboxVenue, SlotKey } from '../model'
import { chargedAtBooking, templateIdOf } from '../policy'
import { policySchema } from '../schemas'
import { venueById } from '../venues'
import type { SandboxAccount } from './accounts'
import { randomToken } from './schema'
import { currentSlot, takeSlot } from './slots'

/** The platform says a book token lives about five minutes. */
export const BOOK_TOKEN_TTL_MS = 5 * 60_000
const FIRST_RESERVATION_ID = 900_000_000

export interface Booking extends SlotKey {
  reservationId: number
  resyToken: string
  email: string
  partySize: number
  policy: Policy
  paymentMethodId: number | null
  bookedAt: number
  /** Which client booked: the User-Agent of the book call (the firewall tells clients apart the same way). */
  client: string
}

/** What a 412 for a table the account already holds carries (AbhiSivaprasad/resy-bot reads `specs` as "already booked"). */
export interface HeldSpecs {
  day: string
  time_slot: string
  num_seats: number
}

export type BookResult =
  | { kind: 'booked'; booking: Booking }
  | { kind: 'refused'; status: 402 | 403 | 404 | 412; message: string; specs?: HeldSpecs }
  /** A bare 402, no body: the venue wants the card on file ([idx 57928723907]). */
  | { kind: 'bare_402' }

/** The table and party a book token or a reservation is for, as stored. */
type TableRow = { email: string; venue_id: number; day: string; time: string; seating: string; party_size: number }
type TokenRow = TableRow & { expires_at: number; template: number }
type ReservationRow = TableRow & {
  reservation_id: number
  resy_token: string
  policy: string
  payment_method_id: number | null
  booked_at: number
  client: string
}

/** A book token for the config as offered: its table and the template (terms) the config token named. */
export function mintBookToken(sql: SqlStorage, account: SandboxAccount, config: ConfigRef, partySize: number, now: number) {
  const token = `bt_${randomToken()}`
  const expiresAt = now + BOOK_TOKEN_TTL_MS
  const slot = config.key
  sql.exec(
    'INSERT INTO book_tokens (token, email, venue_id, day, time, seating, party_size, expires_at, template) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    token,
    account.email,
    slot.venueId,
    slot.day,
    slot.time,
    slot.seating,
    partySize,
    expiresAt,
    config.template,
  )
  return { token, expiresAt }
}

export function book(
  sql: SqlStorage,
  account: SandboxAccount,
  request: { bookToken: string; paymentMethodId: number | null; client: string },
  now: number,
  /** The release contest's world: its release rules and release clock (store/release-rules.ts). */
  world: { releaseNow: number; venueOf: (venueId: number) => SandboxVenue | undefined } = { releaseNow: now, venueOf: venueById },
): BookResult {
  const { bookToken, paymentMethodId } = request
  const row = sql.exec<TokenRow>('SELECT * FROM book_tokens WHERE token = ? AND email = ?', bookToken, account.email).toArray()[0]
  if (!row) return { kind: 'refused', status: 404, message: 'Unknown book token' }
  if (row.expires_at < now) return { kind: 'refused', status: 412, message: 'Book token expired' }
  const key: SlotKey = { venueId: row.venue_id, day: row.day, time: row.time, seating: row.seating }
  const held = sql
    .exec<{ party_size: number }>(
      'SELECT party_size FROM reservations WHERE email = ? AND venue_id = ? AND day = ? AND time = ?',
      account.email,
      key.venueId,
      key.day,
      key.time,
    )
    .toArray()[0]
  if (held) {
    // Also what a retried book of a table this token already booked gets (tokens stay after use).
    const specs = { day: key.day, time_slot: `${key.time}:00`, num_seats: held.party_size }
    return { kind: 'refused', status: 412, message: 'You already have a reservation at this time', specs }
  }
  const venue = world.venueOf(key.venueId)
  // What such venues answer is not public beyond "book there fails" and the 402: the words and the
  // 403 are the sandbox's guess ([idx 57928723907] reads "recaptcha" in a refusal's body).
  if (venue?.bookingRule === 'recaptcha') return { kind: 'refused', status: 403, message: 'reCAPTCHA verification required to book' }
  if (venue?.bookingRule === 'tock') return { kind: 'refused', status: 403, message: "This venue's reservations are made on Tock" }
  if (venue?.bookingRule === 'card_on_file' && paymentMethodId === null) return { kind: 'bare_402' }
  const slot: SandboxSlot | null = venue ? currentSlot(sql, venue, key) : null
  if (!venue || !slot || !isOffered(venue, slot, world.releaseNow))
    return { kind: 'refused', status: 404, message: 'Slot no longer available' }
  if (row.party_size < slot.partyMin || row.party_size > slot.partyMax)
    return { kind: 'refused', status: 404, message: 'Slot no longer available' }
  // Cardholder-only inventory (`exclusive.is_eligible: false`, `is_global_dining_access`: [idx 71230653704],
  // [idx 70940072871]) is not an ordinary account's to book. The status and words are the sandbox's guess.
  if (slot.policy.access !== undefined)
    return { kind: 'refused', status: 412, message: 'This reservation is available to eligible cardholders only' }
  // The terms changed since the find that offered this config: its template (named in the config
  // token: docs/platform.md, "Availability") is no longer the table's, so the config offered is gone, and with it the book token.
  // The platform never books terms the diner was not shown. (0: a token minted before the column.)
  if (row.template !== 0 && row.template !== templateIdOf(slot.venueId, slot.seating, slot.policy))
    return { kind: 'refused', status: 404, message: 'Slot no longer available' }
  // A charge at booking needs a card as much as a hold does; a fee stated only in the notes
  // does not, but is charged when a card is sent anyway; a paid add-on (`is_add_on_required`) is
  // booked without one and charged to the card on file (policy.addOnPerPerson, kept in the ledger) (docs/platform.md, "Booking"; see chargedAtBooking in policy.ts).
  const needsCard = slot.policy.kind !== 'free' || chargedAtBooking(slot.policy, row.party_size, false) > 0
  if (needsCard && (account.paymentMethodId === null || paymentMethodId !== account.paymentMethodId)) {
    return { kind: 'refused', status: 402, message: 'A payment method is required' }
  }
  const reservationId = sql
    .exec<{ n: number }>('SELECT COALESCE(MAX(reservation_id), ?) + 1 AS n FROM reservations', FIRST_RESERVATION_ID)
    .one().n
  const booking: Booking = {
    ...key,
    reservationId,
    resyToken: `rr://${randomToken()}`,
    email: account.email,
    partySize: row.party_size,
    policy: slot.policy,
    // The card as sent, needed or not: what the platform would charge depends on it.
    paymentMethodId,
    bookedAt: now,
    client: request.client,
  }
  sql.exec(
    `INSERT INTO reservations (reservation_id, resy_token, email, venue_id, day, time, seating, party_size, policy, payment_method_id, booked_at, client)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    booking.reservationId,
    booking.resyToken,
    booking.email,
    booking.venueId,
    booking.day,
    booking.time,
    booking.seating,
    booking.partySize,
    JSON.stringify(booking.policy),
    booking.paymentMethodId,
    booking.bookedAt,
    booking.client,
  )
  takeSlot(sql, key)
  return { kind: 'booked', booking }
}

const bookingOf = (r: ReservationRow): Booking => ({
  reservationId: r.reservation_id,
  resyToken: r.resy_token,
  email: r.email,
  venueId: r.venue_id,
  day: r.day,
  time: r.time,
  seating: r.seating,
  partySize: r.party_size,
  policy: policySchema.parse(JSON.parse(r.policy)),
  paymentMethodId: r.payment_method_id,
  bookedAt: r.booked_at,
  client: r.client,
})

/** The account's bookings whose time is after `after`, soonest first. */
function bookingsAfter(sql: SqlStorage, email: string, after: number): Booking[] {
  return sql
    .exec<ReservationRow>('SELECT * FROM reservations WHERE email = ? ORDER BY day, time', email)
    .toArray()
    .map(bookingOf)
    .filter((b) => {
      const venue = venueById(b.venueId)
      return venue !== undefined && instantOf(b.day, b.time, venue.zone) > after
    })
}

/** The account's reservations whose time has not passed, soonest first. */
export function upcomingOf(sql: SqlStorage, email: string, now: number): Booking[] {
  return bookingsAfter(sql, email, now)
}

/** How long a reservation that took place stays on the account's list (recent history: docs/platform.md, "Reservations"). */
export const LISTED_HISTORY_MS = 30 * 86_400_000

/** The account's bookings the reservation list shows: upcoming ones and those of the last 30 days. */
export function listedOf(sql: SqlStorage, email: string, now: number): Booking[] {
  return bookingsAfter(sql, email, now - LISTED_HISTORY_MS)
}

/** Every booking ever made in this world, for safety checks. */
export function ledger(sql: SqlStorage): Booking[] {
  return sql.exec<ReservationRow>('SELECT * FROM reservations ORDER BY reservation_id').toArray().map(bookingOf)
}
