// Throttling of failed sign-ins: 5 failures per email, or 30 per client address, within
// 15 minutes lock that key until the window ends. Counting failures per address too stops
// one client from trying many emails.
import type { Db } from '../db/client'
import { clearLoginAttempts, findLoginAttempts, recordLoginFailure } from '../db/login-attempts'

export const THROTTLE_WINDOW_MS = 15 * 60 * 1000
export const MAX_FAILURES_PER_EMAIL = 5
export const MAX_FAILURES_PER_ADDRESS = 30

export interface ThrottleKeys {
  email: string
  address: string
}

function keysWithLimits(keys: ThrottleKeys): [string, number][] {
  return [
    [`email:${keys.email}`, MAX_FAILURES_PER_EMAIL],
    [`addr:${keys.address}`, MAX_FAILURES_PER_ADDRESS],
  ]
}

/** Whole minutes until the user may try again, or null when no key is locked. */
export async function lockedForMinutes(db: Db, keys: ThrottleKeys, now: number): Promise<number | null> {
  let lockedUntil = 0
  for (const [key, limit] of keysWithLimits(keys)) {
    const row = await findLoginAttempts(db, key)
    const windowEnd = row ? row.windowStart + THROTTLE_WINDOW_MS : 0
    if (row && row.failures >= limit && windowEnd > now) lockedUntil = Math.max(lockedUntil, windowEnd)
  }
  return lockedUntil > now ? Math.max(1, Math.ceil((lockedUntil - now) / 60_000)) : null
}

export async function recordFailure(db: Db, keys: ThrottleKeys, now: number): Promise<void> {
  for (const [key] of keysWithLimits(keys)) await recordLoginFailure(db, key, now, THROTTLE_WINDOW_MS)
}

/** A successful sign-in forgives the email's failures (not the address's). */
export async function clearFailures(db: Db, keys: ThrottleKeys): Promise<void> {
  await clearLoginAttempts(db, `email:${keys.email}`)
}
