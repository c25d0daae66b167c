// The sandbox platform's own vocabulary. Wire shapes (what the real platform sends) live in wire.ts.
import type { TERMS_GAPS } from './schemas'

export type TermsGap = (typeof TERMS_GAPS)[number]

/**
 * What booking a slot costs or commits to. On the wire (wire.ts) it becomes what the platform
 * states: the find slot's `payment` and its template (`is_event` for tickets).
 */
export type Policy = PolicyTerms & {
  /** How the find reply falls short of stating the terms (schemas.ts TERMS_GAPS); absent: fully stated. */
  gap?: TermsGap
  /** A per-person reservation fee stated only in the template's need_to_know text; charged when a card is sent. */
  textFeePerPerson?: number
  /** The template's large_party_size_cancel / large_party_cancellation_fee: the fee from that party size on. */
  largeParty?: { size: number; feePerPerson: number }
  /** What the /3/details payment.amounts add at booking. */
  charges?: { resyFee?: number; serviceFee?: number; tax?: number }
}

type PolicyTerms =
  | { kind: 'free' }
  /**
   * Card hold: a late-cancellation / no-show fee per person, free until `cutoffHours` before the
   * table's time, or before `cutoffTime` (HH:MM) on the service day when given.
   */
  | { kind: 'fee'; feePerPerson: number; cutoffHours: number; cutoffTime?: string }
  /** Money taken up front per person, refundable until `cutoffHours` before. */
  | { kind: 'deposit'; amountPerPerson: number; cutoffHours: number }
  | { kind: 'prepaid'; amountPerPerson: number }
  | { kind: 'ticketed'; amountPerPerson: number }

export interface ReleaseRule {
  days: number
  /** HH:MM (or HH:MM:SS, a world's own rule: store/release-rules.ts) venue-local */
  time: string
}

export interface SandboxVenue {
  id: number
  name: string
  city: string
  region: string
  neighborhood: string
  cuisine: string
  /** IANA zone used for every computation. */
  zone: string
  /** What the wire says in `location.time_zone` (sometimes a legacy name such as EST5EDT). */
  wireZone: string
  slug: string
  seatings: string[]
  /** Per seating type; missing → free. */
  policies: Record<string, Policy>
  release: ReleaseRule | null
  /** Chance that a given (time, seating) has a table on a given day. */
  density: number
  /** 0 = Sunday … 6 = Saturday */
  closedWeekday: number | null
  notes: string
  /**
   * What stands in the way of booking there headlessly (docs/platform.md, "Venues and search",
   * [idx 57928723907]): a reCAPTCHA (`feature_recaptcha`), Tock's inventory (`is_tock_inventory`),
   * or a card on file even for a free table (a bare 402 to a book without one). Null: none.
   */
  bookingRule: BookingRule | null
}

export type BookingRule = 'recaptcha' | 'tock' | 'card_on_file'

export interface SlotKey {
  venueId: number
  day: string // YYYY-MM-DD
  time: string // HH:MM
  seating: string
}

/** A config token's table and the template (the terms) it was offered under (the token names both: docs/platform.md, "Availability"). */
export interface ConfigRef {
  key: SlotKey
  template: number
}

export interface SandboxSlot extends SlotKey {
  partyMin: number
  partyMax: number
  policy: Policy
}

export const slotKeyOf = (s: SlotKey): string => `${s.venueId}|${s.day}|${s.time}|${s.seating}`
