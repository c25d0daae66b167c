// The shapes a paired device's results must have, one per work call. A device
// answers with what its platform client returned; the service reads those answers the way it
// reads the platform's own (fee terms, book tokens, reservations), so each one is checked in full
// before a request sees it, not just by its `kind`. The schemas mirror the types in api.ts; the
// `Same` checks below stop the build when the two drift apart.
import { z } from 'zod'
import type { BookingDetails, BookOutcome, Failure, PlatformReservation, Slot } from './api'
import type { BlockSignal } from './blocks'
import type { WorkCall, WorkResult } from './device-protocol'

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/)
const time = z.string().regex(/^\d{2}:\d{2}$/)
const text = z.string().max(2000)
const amount = z.number().finite().nonnegative().nullable()

const blockSignal = z.enum(['cloudfront', 'imperva', 'plain_500', 'empty_500', 'html_page'])

const failure = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('reauth') }),
  z.strictObject({ kind: z.literal('operator_fault'), detail: text }),
  z.strictObject({ kind: z.literal('blocked'), signal: blockSignal }),
  z.strictObject({ kind: z.literal('rate_limited'), retryAfterMs: z.number().int().nonnegative() }),
  z.strictObject({ kind: z.literal('unavailable'), detail: text }),
  z.strictObject({ kind: z.literal('not_found') }),
])

const templateTerms = z.strictObject({
  isEvent: z.boolean().nullable(),
  isPaid: z.boolean().nullable(),
  depositFee: amount,
  cancellationFee: amount,
  needToKnow: text.nullable(),
  largePartySize: z.number().int().nonnegative().nullable(),
  largePartyFee: amount,
})

const slot = z.strictObject({
  venueId: z.number().int().positive(),
  configId: z.string().min(1).max(500),
  day,
  startDate: day,
  time,
  seatingType: z.string().max(200),
  partyMin: z.number().int().positive(),
  partyMax: z.number().int().positive(),
  terms: z.strictObject({
    paymentStated: z.boolean(),
    isPaid: z.boolean().nullable(),
    depositFee: amount,
    cancellationFee: amount,
    secsCancelCutOff: z.number().int().nonnegative().nullable(),
    timeCancelCutOff: z.string().max(20).nullable(),
    serviceCharge: z.string().max(200).nullable(),
    addOnRequired: z.boolean().nullable(),
    template: templateTerms.nullable(),
  }),
})

const bookingDetails = z.strictObject({
  bookToken: z.string().min(1).max(5000),
  cancellationFee: amount,
  freeCancellationUntil: z.number().int().nullable(),
  amounts: z.strictObject({ reservationCharge: amount, resyFee: amount, serviceFee: amount, tax: amount, total: amount }).nullable(),
})

const reservation = z.strictObject({
  reservationId: z.string().min(1).max(200),
  venueId: z.number().int().positive(),
  day,
  time,
  partySize: z.number().int().positive(),
  seatingType: z.string().max(200),
})

const outcome = <T extends z.ZodType>(value: T) => z.union([z.strictObject({ kind: z.literal('ok'), value }), failure])

const bookOutcome = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('booked'), reservationId: z.string().min(1).max(200) }),
  z.strictObject({
    kind: z.literal('refused'),
    reason: z.enum(['card_required', 'card_on_file_required', 'recaptcha_required', 'tock_inventory', 'slot_gone']),
  }),
  z.strictObject({ kind: z.literal('reauth') }),
  z.strictObject({ kind: z.literal('rate_limited'), retryAfterMs: z.number().int().nonnegative() }),
  z.strictObject({ kind: z.literal('unknown'), detail: text, saidGone: z.boolean().optional() }),
])

const resultSchemas = {
  find: outcome(z.array(slot).max(1000)),
  details: outcome(bookingDetails),
  reservations: outcome(z.array(reservation).max(1000)),
  book: bookOutcome,
} satisfies Record<WorkCall['op'], z.ZodType>

/**
 * The device's result for `call`, or what an unreadable one means: for a booking, an outcome to
 * verify on the account (it may have happened); for a read, a failed read.
 */
export function readDeviceResult<C extends WorkCall>(call: C, raw: unknown): { result: WorkResult<C>; readable: boolean } {
  const parsed = resultSchemas[call.op].safeParse(raw)
  if (parsed.success) return { result: parsed.data as WorkResult<C>, readable: true }
  const detail = 'the paired device sent a result the service could not read'
  const result = call.op === 'book' ? { kind: 'unknown', detail } : { kind: 'unavailable', detail }
  return { result: result as WorkResult<C>, readable: false }
}

// Compile-time: each schema describes exactly its type in api.ts (typecheck fails on drift).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type Holds<T extends true> = T
type _SchemasMatchTypes = [
  Holds<Same<z.infer<typeof blockSignal>, BlockSignal>>,
  Holds<Same<z.infer<typeof failure>, Failure>>,
  Holds<Same<z.infer<typeof slot>, Slot>>,
  Holds<Same<z.infer<typeof bookingDetails>, BookingDetails>>,
  Holds<Same<z.infer<typeof reservation>, PlatformReservation>>,
  Holds<Same<z.infer<typeof bookOutcome>, BookOutcome>>,
]
