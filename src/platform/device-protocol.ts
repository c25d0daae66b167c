// The messages between the service and a paired device over its WebSocket. The
// device does the platform calls that need the user's platform account (and, for its user, the
// availability checks) with the same client as the worker (client.ts) and its own token, which
// never leaves it. Every work item has an id; the device acknowledges it, then sends one result.
// A result for an id that already has one changes nothing, so a result sent twice (after a
// reconnect) is harmless; the device keeps the results it sent until the service confirms them,
// so an item sent again is answered from that journal, never done twice.
import { z } from 'zod'
import type { BookingDetails, BookOutcome, DetailsQuery, FindQuery, Outcome, PlatformReservation, Slot } from './api'
import { RelayAnswer, type RelayStep } from './sign-in-relay'

/** One platform call a device makes for its user. */
export type WorkCall =
  | { op: 'find'; query: FindQuery }
  | { op: 'details'; query: DetailsQuery }
  | { op: 'reservations' }
  /**
   * The device books with its own account's card: the service never holds it. `card` false: the
   * table holds no card, so none is sent (docs/platform.md, "Booking"); absent (an older service): the card is sent.
   */
  | { op: 'book'; bookToken: string; card?: boolean }

export type WorkResult<C extends WorkCall = WorkCall> = C extends { op: 'find' }
  ? Outcome<Slot[]>
  : C extends { op: 'details' }
    ? Outcome<BookingDetails>
    : C extends { op: 'reservations' }
      ? Outcome<PlatformReservation[]>
      : BookOutcome

/** What the device says about its own platform account (never the token). */
export const DevicePlatformFacts = z.strictObject({
  connected: z.boolean(),
  displayName: z.string().max(200).nullable(),
  paymentMethodOnFile: z.boolean(),
})
export type DevicePlatformFacts = z.infer<typeof DevicePlatformFacts>

const workId = z.string().min(1).max(200)

/** Kinds a result may carry (api.ts): anything else is refused before it reaches a request. */
const resultKinds = [
  'ok',
  'reauth',
  'operator_fault',
  'blocked',
  'rate_limited',
  'unavailable',
  'not_found',
  'booked',
  'refused',
  'unknown',
] as const

export const DeviceMessage = z.discriminatedUnion('type', [
  /** First message after connecting, and whenever the device's platform account changes. */
  /** `relay`: the device can sign in to the platform for its user (it has the platform's settings, sign-in-relay.ts). */
  z.strictObject({ type: z.literal('hello'), platform: DevicePlatformFacts, version: z.string().max(50), relay: z.boolean().optional() }),
  z.strictObject({ type: z.literal('ack'), id: workId }),
  z.strictObject({ type: z.literal('result'), id: workId, result: z.looseObject({ kind: z.enum(resultKinds) }) }),
  /** The answer to one step of a sign-in (never stored by the service's object). */
  z.strictObject({ type: z.literal('signed'), id: workId, answer: RelayAnswer }),
])
export type DeviceMessage = z.infer<typeof DeviceMessage>

export type ServiceMessage =
  | { type: 'work'; id: string; call: WorkCall }
  /** One step of a platform sign-in the device makes for its user (sign-in-relay.ts). */
  | { type: 'sign_in'; id: string; step: RelayStep }
  /** The result of this id is stored: the device may forget it. */
  | { type: 'stored'; id: string }
  | { type: 'error'; message: string }

/** The close code a revoked device's socket ends with: the device stops and asks to be paired again. */
export const REVOKED_CLOSE_CODE = 4003
