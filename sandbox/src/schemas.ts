// Zod schemas for what the sandbox reads: control API bodies and its own stored JSON. The control
// client (../control-client.ts) reuses them so tests and the benchmark send exactly this.
import { z } from 'zod'

export const ENDPOINTS = [
  'login',
  'mobile',
  'challenge',
  'refresh',
  'user',
  'search',
  'venue',
  'config',
  'find',
  'calendar',
  'details',
  'book',
  'reservations',
] as const
export const endpointSchema = z.enum(ENDPOINTS)
export type Endpoint = z.infer<typeof endpointSchema>

const usd = z.number().min(0).max(10_000)
/**
 * Where the find reply falls short of stating a table's terms, as the evidence allows it to
 * (docs/platform.md, "Money terms": where a field is missing or the answers disagree, the
 * service must not book): no `payment` on the slot, a template the reply lacks, a template without
 * `is_event`, a template whose `is_paid` contradicts its slot, a /3/details reply without
 * `payment.amounts`. Absent: stated fully. The table
 * books like any other; only what the platform says about it changes.
 */
export const TERMS_GAPS = ['payment_missing', 'template_missing', 'is_event_missing', 'template_disagrees', 'amounts_missing'] as const
const gap = z.enum(TERMS_GAPS).optional()
/**
 * Money terms the platform states outside the find slot's `payment` (docs/platform.md, "Money terms"),
 * on any kind of table: `textFeePerPerson`, a per-person reservation fee stated only in the
 * template's `need_to_know` text ([idx 37355943101]) and charged at booking when a card is sent;
 * `largeParty`, the template's `large_party_size_cancel` / `large_party_cancellation_fee`
 * ([idx 37355943101]), the fee that applies from that party size on; `charges`, what the
 * /3/details `payment.amounts` add at booking ([idx 53104099941]).
 */
const moneyExtras = {
  textFeePerPerson: usd.optional(),
  largeParty: z.object({ size: z.number().int().min(2).max(20), feePerPerson: usd }).optional(),
  charges: z.object({ resyFee: usd.optional(), serviceFee: usd.optional(), tax: usd.optional() }).optional(),
  // A paid add-on, and cardholder-only inventory (model.ts Policy; docs/platform.md, "Money terms", "Availability").
  addOnPerPerson: usd.optional(),
  access: z.enum(['exclusive', 'global_dining_access']).optional(),
}
export const policySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('free'), gap, ...moneyExtras }),
  z.object({
    kind: z.literal('fee'),
    gap,
    ...moneyExtras,
    feePerPerson: usd,
    cutoffHours: z.number().int().min(0).max(720),
    cutoffTime: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/)
      .optional(),
  }),
  z.object({ kind: z.literal('deposit'), amountPerPerson: usd, cutoffHours: z.number().int().min(0).max(720), gap, ...moneyExtras }),
  z.object({ kind: z.literal('prepaid'), amountPerPerson: usd, gap, ...moneyExtras }),
  z.object({ kind: z.literal('ticketed'), amountPerPerson: usd, gap, ...moneyExtras }),
])

export const slotKeySchema = z.object({
  venueId: z.number().int(),
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
  seating: z.string().min(1).max(60),
})
export type SlotKeyInput = z.infer<typeof slotKeySchema>

export const addSlotSchema = slotKeySchema.extend({
  partyMin: z.number().int().min(1).max(20).default(1),
  partyMax: z.number().int().min(1).max(20).default(8),
  policy: policySchema.default({ kind: 'free' }),
  /**
   * A table published at a later instant (epoch ms), as the platform publishes a day's tables at
   * its release time (`last_calendar_day` moves forward at release time, and snipers poll from
   * the drop: docs/platform.md, "Calendar and release"): find, details and the calendar do not show it before then. Control API only.
   */
  opensAt: z.number().int().positive().optional(),
})
export type AddSlotInput = z.input<typeof addSlotSchema>

export const setPolicySchema = slotKeySchema.extend({ policy: policySchema })

export const FAULT_KINDS = [
  '429',
  '500',
  '503',
  'timeout',
  '412',
  '419',
  'session_500',
  'book_lost',
  'book_held',
  'gone_410',
  'format_415',
  'format_400',
  'stale',
  'odd_entry',
  'pass',
  'slow',
] as const
export const faultSchema = z.object({
  endpoint: endpointSchema,
  /**
   * 429/500/503/412/419: answer with that status, doing nothing (419 on a call that sends only the
   * API key is what a wrong or rotated key gets). session_500: a 500 whose body says the session
   * is invalid, as an expired session sometimes gets (`chrischall/resy-mcp`; docs/platform.md, "Requests and headers"). timeout: answer nothing for `hangMs` (then 504).
   * slow: answer normally, after `hangMs` (a book at a drop took about 12 s, [idx 57928723907]).
   * pass: answer normally (queued before another fault, it lets the first calls through so the
   * later fault hits a chosen call). book_lost: do the work (the booking is committed), then lose
   * the answer: a 500, or with `hangMs` > 0 a hang followed by 504. book_held: the booking is
   * committed, and the answer is the one a retry of that book gets: 412 with `specs`
   * (`AbhiSivaprasad/resy-bot`: "the server returns 412 but the request is successful").
   * gone_410: nothing is booked, and the answer is a 410 saying the slot is no longer available
   * (an unclear outcome the account must disprove: docs/decisions/booking.md).
   * format_415 / format_400: nothing is booked, and the answer is about the body's format: a 415
   * page as a web framework writes it (HTML), or a JSON 400 (`/3/details` answers 415 to a form,
   * and one capture says `/3/book` takes JSON: docs/platform.md, "Booking").
   * stale: the reservation list lags, without the bookings of the last minute (a booking can
   * show on the account later than it happened, `Alkaar#45`). odd_entry: the reservation list or
   * the find reply carries one more entry of an odd shape (a null `time_slot`, a slot without a
   * date), as real lists may (docs/platform.md, "Availability").
   */
  kind: z.enum(FAULT_KINDS),
  /** How many of the next calls of the endpoint get the fault. */
  count: z.number().int().min(1).max(100).default(1),
  hangMs: z.number().int().min(0).max(60_000).default(0),
})
export type FaultInput = z.input<typeof faultSchema>
export type Fault = z.output<typeof faultSchema>

export const invalidateSchema = z.object({ email: z.string().min(1) })

/** A cancelled or past reservation on an account's list (store/history.ts); never a booking. */
export const historySchema = slotKeySchema.extend({
  email: z.string().min(1),
  partySize: z.number().int().min(1).max(20),
  state: z.enum(['cancelled', 'finished', 'no_show']),
  /** The legacy shape: `time_slot` as `{date}`, no `day`. */
  legacy: z.boolean().default(false),
})
export type HistoryInput = z.input<typeof historySchema>

export const BLOCK_STYLES = ['empty_500', 'plain_500', 'html_403', 'cloudfront', 'imperva'] as const
export const blockSchema = z.object({
  /** The client blocked, by its exact User-Agent; absent: every client. */
  userAgent: z.string().min(1).max(500).optional(),
  /** How long from now; 0 lifts the block. */
  forMs: z.number().int().min(0).max(3_600_000),
  style: z.enum(BLOCK_STYLES).default('empty_500'),
})
export type BlockInput = z.input<typeof blockSchema>
export type BlockStyle = (typeof BLOCK_STYLES)[number]

/** How long tokens issued from now on live (the platform's: about 45 and 90 days). */
export const tokenLifetimesSchema = z.object({
  authSeconds: z
    .number()
    .int()
    .min(1)
    .max(90 * 86_400),
  refreshSeconds: z
    .number()
    .int()
    .min(1)
    .max(365 * 86_400),
})
export type TokenLifetimes = z.infer<typeof tokenLifetimesSchema>

/** How far the calendar (/4/venue/calendar) lags behind the tables' real state; 0 by default. */
export const calendarLagSchema = z.object({ lagMs: z.number().int().min(0).max(3_600_000) })

/**
 * The CDN's rate rule (store/cdn-rate.ts): more than `callsPerSecond` calls in any second from one
 * client blocks that client for `blockForMs`, answered in `style`. null turns the rule off (the default).
 */
export const cdnRateSchema = z.object({
  callsPerSecond: z.number().int().min(1).max(10_000).nullable(),
  blockForMs: z.number().int().min(1).max(3_600_000).default(60_000),
  style: z.enum(BLOCK_STYLES).default('plain_500'),
})
export type CdnRateInput = z.input<typeof cdnRateSchema>

/** The release contest (store/release-rules.ts): a venue's release rule in one world; null restores the seeded one. */
export const releaseRuleSchema = z.object({
  venueId: z.number().int(),
  rule: z
    .object({
      days: z.number().int().min(0).max(89),
      time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/),
      stated: z.boolean(),
    })
    .nullable(),
})
export type ReleaseRuleInput = z.infer<typeof releaseRuleSchema>

/** The release contest: from `epoch` (ms), a world's day lasts `secondsPerDay` real seconds; null: the real clock. */
export const releaseClockSchema = z.object({
  clock: z.object({ epoch: z.number().int().min(0), secondsPerDay: z.number().min(60).max(86_400) }).nullable(),
})

/** A mobile number as the platform takes it: E.164. */
const mobileNumber = z.string().regex(/^\+[1-9]\d{7,14}$/)

/**
 * An account made through the control API (store/accounts.ts). `password` null: the account has
 * none and signs in only by a code texted to `mobileNumber` (docs/platform.md, "Sign-in": many
 * accounts never set one, [idx 57928723907]). `challenge`: a right code is followed by the
 * challenge that asks for the account's email (what [idx 57928723907] saw), else it signs in at once.
 */
export const accountSchema = z.object({
  email: z.string().min(3).max(200),
  mobileNumber: mobileNumber.optional(),
  password: z.string().min(1).max(200).nullable(),
  card: z.boolean().default(true),
  challenge: z.boolean().default(true),
})
export type AccountInput = z.input<typeof accountSchema>

/** The account calls the datacenter mode may refuse from the service's cloud path (network.ts). */
export const ACCOUNT_CALLS = ['sign_in', 'refresh', 'user', 'details', 'book', 'reservations'] as const
export type AccountCall = (typeof ACCOUNT_CALLS)[number]

export const PASSWORD_PATHS = ['/4/auth/password', '/3/auth/password'] as const

/**
 * How strict the world's sign-in is (routes/sign-in.ts, store/codes.ts). The statuses and words
 * of the refusals are guesses where nothing is public (docs/decisions/platform-account.md).
 */
export const signInSettingsSchema = z.object({
  /** The password endpoints that exist: /3 can be removed ("no longer exists", [idx 57928723907]). */
  passwordPaths: z
    .array(z.enum(PASSWORD_PATHS))
    .max(2)
    .default([...PASSWORD_PATHS]),
  /** How long a texted code works, and how many wrong tries end it. */
  codeTtlSeconds: z.number().int().min(1).max(3600).default(600),
  codeTries: z.number().int().min(1).max(20).default(5),
  /** Codes texted to one number in CODE_SEND_WINDOW before the platform says too many. */
  codeSendsPerWindow: z.number().int().min(1).max(50).default(5),
  /** /4/auth/mobile refuses a send without a `captcha_token` (the web client may send one, [idx 57928723907]). */
  captcha: z.boolean().default(false),
  /** A code sign-in's refresh token: none (what [idx 57928723907] saw), or one in the body. */
  codeSessionRefresh: z.enum(['none', 'body']).default('none'),
  /** A password sign-in's refresh token: the cookie (`Cierge:resy/auth.go`) or the body ([idx 57928723907]). */
  passwordSessionRefresh: z.enum(['cookie', 'body']).default('cookie'),
  /** /4/auth/password says an account has no password (a guess) instead of answering it like a wrong one. */
  noPasswordSaysSo: z.boolean().default(false),
  /**
   * Datacenter mode (network.ts): the listed account calls get the CDN's plain-text 500 unless
   * they come from one of `homeAddresses` (CF-Connecting-IP) without a CF-Worker header. Null: off.
   */
  datacenter: z
    .object({
      refuse: z.array(z.enum(ACCOUNT_CALLS)).min(1).default(['sign_in', 'refresh']),
      homeAddresses: z.array(z.string().min(1).max(64)).min(1).max(8).default(['127.0.0.2']),
    })
    .nullable()
    .default(null),
  /** Account calls (a user token, a refresh) without the CDN's cookies of this world get Imperva's cookie challenge (cdn.ts). */
  cdnCookiesRequired: z.boolean().default(false),
})
export type SignInSettings = z.output<typeof signInSettingsSchema>
/** What the control API takes: any of the settings; the rest stay as they are. */
export const signInSettingsInput = signInSettingsSchema.partial()
export type SignInSettingsInput = z.input<typeof signInSettingsInput>
