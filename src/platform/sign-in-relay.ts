// A platform sign-in a paired device makes for its user when the platform refuses the service's
// own network (docs/platform.md, "Where calls may come from"): the diner types the code (or the
// password) on Tablewatch's page, the service hands it to the device over its WebSocket, and the
// device makes the call from the user's network with its platform client and answers. Nothing of
// this is kept by the device's object or journal: a sign-in is a conversation with a person
// waiting on a page, done again from the page when it fails. The session the device gets is
// sealed to a one-time key of that sign-in (src/lib/sealed-to-key.ts) before it leaves the device.
import { z } from 'zod'
import type { Account, PlatformSession, SignInRefusal } from './api'

const text = z.string().min(1).max(500)
const publicKey = z.strictObject({ x: z.string().min(1).max(100), y: z.string().min(1).max(100) })

/** Where the device seals the session it gets: the sign-in's public key, and the context it is bound to. */
const sealTo = z.strictObject({ key: publicKey, context: text })

const challenge = z.strictObject({ challengeId: text, claimToken: text.nullable() })

const secret = z.string().min(1).max(10_000)
const cdnCookies = z.record(z.string().max(100), z.string().max(1024)).refine((jar) => Object.keys(jar).length <= 12)

/**
 * One step of a sign-in, as the service asks the device for it. `deviceToken` names the sign-in
 * (the code is tied to it): the device keeps that sign-in's CDN cookies itself, as the browser it
 * speaks for, from the code's request to the session.
 */
export const RelayStep = z.discriminatedUnion('step', [
  z.strictObject({ step: z.literal('send_code'), mobileNumber: text, deviceToken: text }),
  z.strictObject({ step: z.literal('check_code'), mobileNumber: text, code: text, deviceToken: text, sealTo }),
  z.strictObject({ step: z.literal('answer_challenge'), challenge, email: text, deviceToken: text, sealTo }),
  z.strictObject({ step: z.literal('password'), email: text, password: text, sealTo }),
  /**
   * A refresh of the session the service holds, made from the diner's side because the platform
   * refused the service's own refresh (docs/platform.md, "Where calls may come from"): the refresh
   * token and the session's CDN cookies go to the device over its connection, and only there; the
   * new session comes back sealed.
   */
  z.strictObject({ step: z.literal('refresh'), refreshToken: secret, cdnCookies, sealTo }),
])
export type RelayStep = z.infer<typeof RelayStep>

/** A refreshed session, as the device seals it (JSON inside the sealed value). */
export const RelayedRefresh = z.strictObject({
  authToken: secret,
  refreshToken: secret.nullable(),
  refreshVia: z.enum(['cookie', 'body']).nullable(),
  refreshExpiresAt: z.number().int().nullable(),
  expiresAt: z.number().int().nullable(),
  cdnCookies,
})
export type RelayedRefresh = z.infer<typeof RelayedRefresh>

/** A signed-in session, as the device seals it: the session and the account's facts. */
export const RelayedSession = RelayedRefresh.extend({
  displayName: z.string().max(200),
  paymentMethodId: z.number().int().nullable(),
})
export type RelayedSession = z.infer<typeof RelayedSession>

const SIGN_IN_REFUSALS = [
  'invalid_number',
  'wrong_password',
  'no_password',
  'wrong_code',
  'code_expired',
  'too_many_tries',
  'captcha_required',
  'wrong_email',
] as const

const sealed = z.strictObject({ epk: publicKey, iv: z.string().min(1).max(100), ciphertext: z.string().min(1).max(40_000) })

/** What the device answers to a step. */
export const RelayAnswer = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('sent') }),
  z.strictObject({ kind: z.literal('challenge'), challenge }),
  z.strictObject({ kind: z.literal('signed_in'), session: sealed }),
  /** A refresh step's new session (RelayedRefresh, sealed). */
  z.strictObject({ kind: z.literal('refreshed'), session: sealed }),
  /** The platform no longer accepts the refresh token (401/419): the diner must sign in again. */
  z.strictObject({ kind: z.literal('rejected') }),
  z.strictObject({ kind: z.literal('refused'), reason: z.enum(SIGN_IN_REFUSALS) }),
  /** The platform refused the device's network too (the CDN's answer). */
  z.strictObject({ kind: z.literal('blocked'), signal: z.string().max(50) }),
  z.strictObject({ kind: z.literal('rate_limited'), retryAfterMs: z.number().int().nonnegative() }),
  /** No answer the device could read, or a platform the device has no settings for. */
  z.strictObject({ kind: z.literal('unavailable'), detail: z.string().max(500) }),
])
export type RelayAnswer = z.infer<typeof RelayAnswer>

// Compile-time: the refusals a device may relay are exactly the platform client's (typecheck fails on drift).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type Holds<T extends true> = T
type _RelayMatchesPlatform = [
  Holds<Same<(typeof SIGN_IN_REFUSALS)[number], SignInRefusal>>,
  Holds<Same<RelayedSession, Account & PlatformSession>>,
  Holds<Same<RelayedRefresh, PlatformSession>>,
]
