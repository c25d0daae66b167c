// The platform's answers, as far as the service reads them (docs/platform.md).
// Tolerant on purpose: unknown fields are dropped, fields that real answers omit or null are
// `.nullish()`, and ids may arrive as numbers or digit strings.
import { z } from 'zod'

const id = z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)])
const text = z
  .string()
  .nullish()
  .transform((v) => v ?? '')
const money = z.number().nullish()

const paymentMethod = z.object({ id, is_default: z.boolean().nullish() })
/** is_paid and friends: a boolean, or the 0/1 the platform uses for flags elsewhere. */
const flag = z.union([z.boolean(), z.literal(0).transform(() => false), z.literal(1).transform(() => true)]).nullish()

/** The account facts of GET /2/user and of a password sign-in's answer. */
export const userAnswer = z.object({
  first_name: text,
  last_name: text,
  em_address: text,
  payment_method_id: id.nullish(),
  payment_methods: z.array(paymentMethod).nullish(),
})

/**
 * A sign-in's answer (POST /4/auth/password, /3/auth/password, /4/auth/challenge, and
 * /4/auth/mobile when the code alone signs in): `token`, often `legacy_token` (unused), and a
 * refresh token in the body (`refresh_token`) or as the `production_refresh_token` cookie
 * (docs/platform.md, "Sign-in"; `Cierge:resy/auth.go`, [idx 57928723907]). The account facts come
 * with a password sign-in (`dwatch/resybot:src/resy/dto/login.dto.ts`); a code sign-in's answer
 * may have none ([idx 57928723907]: "token and legacy_token and nothing else"), or nest the
 * session under `user` ([idx 57928723907] reads `first.user.token` too).
 */
export const signedInAnswer = z.object({
  token: z.string().min(1),
  refresh_token: z.string().min(1).nullish(),
  first_name: z.string().nullish(),
  last_name: z.string().nullish(),
  em_address: z.string().nullish(),
  payment_method_id: id.nullish(),
  payment_methods: z.array(paymentMethod).nullish(),
})
export type SignedInAnswer = z.output<typeof signedInAnswer>

/** Kept for the probe's schema check of a password sign-in: the facts are there. */
export const loginAnswer = userAnswer.extend({ token: z.string().min(1) })

/**
 * POST /4/auth/mobile with the code, when it does not sign in at once: the challenge that asks for
 * the account's email ([idx 57928723907]: `challenge.challenge_id`, `properties[].name`), with a
 * `mobile_claim.claim_token` in some answers ([idx 59086060355], whose challenge sends it back).
 */
export const codeChallengeAnswer = z.object({
  challenge: z.object({ challenge_id: z.union([z.string().min(1), z.number().int().transform(String)]) }),
  mobile_claim: z.object({ claim_token: z.string().min(1).nullish() }).nullish(),
})

/** POST /3/auth/refresh: a new token, and maybe the refresh token in the body ([idx 57928723907]); Cierge reads only `token`. */
export const refreshAnswer = z.object({ token: z.string().min(1), refresh_token: z.string().min(1).nullish() })

/** `source.name`: the venue books on another platform when it names one (docs/platform.md, "Venues and search"). */
const venueSource = z.object({ name: z.string().nullish() }).nullish()
/** `reopen.date`: closed until then when still to come; a past one is common on open venues and means nothing. */
const venueReopen = z.object({ date: z.string().nullish() }).nullish()

/**
 * The venue flags that say booking there is not possible for us (docs/platform.md, "Venues and
 * search"): on search hits and venue data alike. Venue-level `is_global_dining_access` alone does
 * not block, so it is not read.
 */
const blockerFlags = {
  feature_recaptcha: flag,
  is_tock_inventory: flag,
  featureRecaptcha: flag,
  gda_concierge_booking: flag,
  requires_reservation_transfers: flag,
  source: venueSource,
  reopen: venueReopen,
}
export type BlockerFlags = { [K in keyof typeof blockerFlags]?: z.output<(typeof blockerFlags)[K]> }

/** POST /3/venuesearch/search (Algolia-style hits). */
export const searchAnswer = z.object({
  search: z.object({
    hits: z.array(
      z.object({
        id: z.object({ resy: id }),
        name: z.string(),
        locality: text,
        neighborhood: text,
        ...blockerFlags,
      }),
    ),
  }),
})

/** GET /3/venue?id= */
export const venueAnswer = z.object({
  id: z.object({ resy: id }),
  name: z.string(),
  url_slug: z.string().nullish(),
  location: z
    .object({
      address_1: text,
      locality: text,
      region: text,
      neighborhood: text,
      time_zone: z.string().nullish(),
      url_slug: z.string().nullish(),
    })
    .nullish(),
  locale: z.object({ time_zone: z.string().nullish() }).nullish(),
  content: z.array(z.object({ name: text, body: text })).nullish(),
  ...blockerFlags,
})

/** GET /2/config?venue_id= */
export const configAnswer = z.object({ lead_time_in_days: z.number().int().nullish() })

/** Amounts in USD: numbers (25.0), or numeric strings. */
const amount = z
  .union([
    z.number().min(0),
    z
      .string()
      .regex(/^\d+(?:\.\d+)?$/)
      .transform(Number),
  ])
  .nullish()

/** A find slot's `payment` (docs/platform.md, "Money terms"; `Cierge:resy/slot.go` SlotPayment, `Alkaar#102`). */
const slotPayment = z.object({
  is_paid: flag,
  deposit_fee: amount,
  cancellation_fee: amount,
  secs_cancel_cut_off: z.number().int().min(0).nullish(),
  time_cancel_cut_off: z.string().nullish(),
  service_charge: z.union([z.string(), z.number().transform(String)]).nullish(),
  // A paid add-on comes with the table, even where every fee field is null (docs/platform.md, "Money terms").
  is_add_on_required: flag,
  requires_payment: flag,
})

/** A venue template in the find reply ([idx 37355943101]; docs/platform.md, "Money terms"). */
export const findTemplate = z.object({
  is_event: flag,
  is_paid: flag,
  deposit_fee: amount,
  cancellation_fee: amount,
  // [idx 37355943101]: the fee that applies from this party size on.
  large_party_size_cancel: z.number().int().min(0).nullish(),
  large_party_cancellation_fee: amount,
  content: z.object({ 'en-us': z.object({ need_to_know: z.object({ body: z.string().nullish() }).nullish() }).nullish() }).nullish(),
})

/** One slot of a find reply (docs/platform.md, "Availability"). */
export const findSlot = z.object({
  // `is_visible` is false on bookable slots, so it is not read (docs/platform.md, "Availability").
  config: z.object({ token: z.string(), type: text }),
  date: z.object({ start: z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/) }),
  size: z.object({ min: z.number().int(), max: z.number().int() }).nullish(),
  template: z.object({ id }).nullish(),
  payment: slotPayment.nullish(),
  /** Cardholder-only inventory when `is_eligible` is false or `is_global_dining_access` true (docs/platform.md, "Availability"). */
  exclusive: z.object({ is_eligible: flag, is_global_dining_access: flag }).nullish(),
  is_global_dining_access: flag,
})

/** One venue of a find reply; its templates and slots are read one by one (see mapping.ts). */
export const findVenue = z.object({
  venue: z.object({ id: z.object({ resy: id }) }),
  templates: z.record(z.string(), z.unknown()).nullish(),
  slots: z.array(z.unknown()),
})

/**
 * GET /4/find. Tolerant by entry (docs/platform.md, "Availability"): one odd venue, template or slot is skipped and logged,
 * the rest of the reply is still used.
 */
export const findAnswer = z.object({ results: z.object({ venues: z.array(z.unknown()) }) })

/** POST /3/details: the book token and the cancellation policy; `payment` is `{config, amounts}` ([idx 53104099941]). */
export const detailsAnswer = z.object({
  book_token: z.object({ value: z.string().min(1) }),
  cancellation: z
    .object({
      fee: z.object({ amount: money, date_cut_off: z.string().nullish() }).nullish(),
      refund: z.object({ date_cut_off: z.string().nullish() }).nullish(),
    })
    .nullish(),
  payment: z
    .object({
      amounts: z
        .object({ reservation_charge: money, subtotal: money, resy_fee: money, service_fee: money, tax: money, total: money })
        .nullish(),
    })
    .nullish(),
})

/** POST /3/book */
export const bookAnswer = z.object({ reservation_id: id, resy_token: z.string().nullish() })

/**
 * What became of a reservation (`status{finished,no_show}`; docs/platform.md, "Reservations"): an object, sometimes naming
 * it in `reservation` ("Cancelled"), or in legacy entries a string (`mvanhorn/printing-press-library`,
 * the goat Resy source, reads both). Absent on some entries.
 */
const reservationStatus = z.union([
  z.string(),
  z.object({ reservation: z.string().nullish(), finished: z.number().nullish(), no_show: z.number().nullish() }),
])

/**
 * One reservation of the account's list (docs/platform.md, "Reservations"). `time_slot` is "HH:MM:SS" with `day`, or in legacy
 * entries an object `{date: "YYYY-MM-DD HH:MM:SS"}` without `day`.
 */
export const reservationEntry = z.object({
  reservation_id: id,
  venue: z.object({ id }),
  day: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .nullish(),
  time_slot: z.union([z.string().regex(/^\d{2}:\d{2}/), z.object({ date: z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/) })]),
  /** The reservation's instant in UTC (ISO), when given. */
  when: z.string().nullish(),
  num_seats: z.number().int(),
  config: z.object({ type: text }).nullish(),
  status: reservationStatus.nullish(),
})

/**
 * GET /3/user/reservations: one page (`limit`/`offset`) and the size of the whole list.
 * Tolerant by entry: one odd reservation (a null `time_slot`, an unknown shape) is skipped
 * and logged; the rest of the list is still used.
 */
export const reservationsAnswer = z.object({
  reservations: z.array(z.unknown()),
  metadata: z.object({ total: z.number().int().nullish() }).nullish(),
})

/** Only the id of an entry, to tell a new page from a repeated one whatever the entry's shape. */
export const reservationIdOnly = z.object({ reservation_id: id })

/**
 * GET /4/venue/calendar (docs/platform.md, "Calendar and release"): one entry per day with the
 * reservation status, and the last bookable day. Shape: `[idx 22790378784]` (a zod schema of the
 * answer), `[idx 40832597357]` (a recorded answer). The status is kept as text: a word the
 * client does not know is read as "ask find" (watching/calendar-check.ts), never as "sold out".
 */
export const calendarAnswer = z.object({
  scheduled: z.array(
    z.object({
      date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
      inventory: z.object({ reservation: z.string() }),
    }),
  ),
  last_calendar_day: z.string().nullish(),
})
export type CalendarAnswer = z.infer<typeof calendarAnswer>
