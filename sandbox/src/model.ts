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
  /**
   * A paid add-on per person (`payment.is_add_on_required`, every fee field null): the platform
   * books the table without a card sent and charges the add-on to the card on file.
   */
  addOnPerPerson?: number
  /**
   * Cardholder-only inventory: `exclusive.is_eligible: false` ('exclusive') or
   * `is_global_dining_access: true` ('global_dining_access'); an ordinary account's book gets a 412.
   */
  access?: 'exclusive' | 'global_dining_access'
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
  /** `reopen.date` (YYYY-MM-DD): a future one with `reopens_later`, a past one on some open venues; null: none. */
  reopenDate: string | null
  /** Each table is listed twice, two `config.id`s sharing one `config.token` (the second `is_visible: false`). */
  sharedTokens: boolean
}

/**
 * recaptcha, tock, card_on_file: see above. The venue flags of the fifth review ([idx 70940072871],
 * [idx 66651854206], [idx 71117166063], [idx 57928723907]): gda_concierge (`gda_concierge_booking`),
 * reservation_transfers (`requires_reservation_transfers`), other_platform (`source.name` set),
 * reopens_later (a `reopen.date` still to come). What the platform answers a book at those is not
 * public: the sandbox books it, so a service that books there shows in the ledger.
 */
export type BookingRule =
  | 'recaptcha'
  | 'tock'
  | 'card_on_file'
  | 'gda_concierge'
  | 'reservation_transfers'
  | 'other_platform'
  | 'reopens_later'

/** The venue rules that make booking there something the account must not do (the simulation counts such bookings). */
export const MUST_NOT_BOOK_RULES: readonly BookingRule[] = ['gda_concierge', 'reservation_transfers', 'other_platform', 'reopens_later']

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
