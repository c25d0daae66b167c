// Throttling of sign-in attempts. Each attempt is reserved before the password is checked, so
// parallel attempts cannot run more checks than the limits allow:
// - 5 per email and client address in 15 minutes: guessing one account from one place;
// - 30 per client address in 15 minutes: one place trying many emails;
// - 10 per email in a minute, from anywhere: a slow-down of guessing spread over addresses. A
//   known device of the email (src/auth/known-device.ts) has its own 10 a minute instead, so
//   guesses from elsewhere cannot lock the owner out.
// A successful sign-in gives its units back and clears the pair's count.
import type { Db } from '../db/client'
import { type Budget, forget, release, reserve } from '../db/rate-limits'

const MINUTE_MS = 60_000
const PAIR_LIMIT = { limit: 5, windowMs: 15 * MINUTE_MS }
const ADDRESS_LIMIT = { limit: 30, windowMs: 15 * MINUTE_MS }
const EMAIL_LIMIT = { limit: 10, windowMs: MINUTE_MS }

export interface ThrottleKeys {
  /** Normalised email. */
  email: string
  /** The client address (CF-Connecting-IP). */
  address: string
  /** The browser's known-device id for this email, when it has one. */
  device?: string | null
}

function budgets(keys: ThrottleKeys): Budget[] {
  return [
    { key: `signin:pair:${keys.email}|${keys.address}`, ...PAIR_LIMIT },
    { key: `signin:addr:${keys.address}`, ...ADDRESS_LIMIT },
    keys.device
      ? { key: `signin:email-device:${keys.email}|${keys.device}`, ...EMAIL_LIMIT }
      : { key: `signin:email:${keys.email}`, ...EMAIL_LIMIT },
  ]
}

export type AttemptReservation = { ok: true } | { ok: false; retryInMinutes: number }

/** Reserves one attempt under every limit, or none (what was taken is given back). */
export async function reserveSignInAttempt(db: Db, keys: ThrottleKeys, now: number): Promise<AttemptReservation> {
  const taken: string[] = []
  for (const budget of budgets(keys)) {
    const reservation = await reserve(db, budget, now)
    if (!reservation.ok) {
      for (const key of taken) await release(db, key)
      return { ok: false, retryInMinutes: Math.max(1, Math.ceil((reservation.retryAt - now) / MINUTE_MS)) }
    }
    taken.push(budget.key)
  }
  return { ok: true }
}

/** A successful sign-in is not a failure: its units come back and the pair starts over. */
export async function forgiveSignIn(db: Db, keys: ThrottleKeys): Promise<void> {
  const [pair, ...others] = budgets(keys)
  if (pair) await forget(db, pair.key)
  for (const budget of others) await release(db, budget.key)
}
