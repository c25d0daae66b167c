// Sign-up and sign-in rules, free of HTTP: the web routes call these and render the result.
// Neither answer tells whether an email has an account.
import type { Db } from '../db/client'
import { insertOutboxEmail } from '../db/notifications'
import { reserve } from '../db/rate-limits'
import { findUserByEmail, insertUser, normalizeEmail, replacePassword, storedPassword, type UserRow } from '../db/users'
import { hashPassword, upgradeToPepper, verifyAgainstNothing, verifyPassword } from './password'
import { forgiveSignIn, reserveSignInAttempt } from './throttle'

export type SignInResult =
  | { ok: true; userId: string }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'throttled'; retryInMinutes: number }

export interface Credentials {
  email: string
  password: string
  /** The client address (CF-Connecting-IP), for the throttles. */
  address: string
  /** The browser's known-device id for this email (src/auth/known-device.ts), for the throttles. */
  device?: string | null
  now: number
  /** PASSWORD_PEPPER, the Worker secret. */
  pepper: string
}

/**
 * Whether `password` is the user's (or, for no user, a check of the same cost that fails). A
 * hash from before peppering is peppered in place first: no password is needed for that.
 */
export async function checkPassword(db: Db, user: UserRow | undefined, password: string, pepper: string): Promise<boolean> {
  let stored = user ? storedPassword(user) : null
  if (!user || !stored) return verifyAgainstNothing(password, pepper)
  if (stored.pepperVersion === null) {
    const peppered = await upgradeToPepper(stored, pepper)
    if (await replacePassword(db, user.id, stored, peppered)) stored = peppered
  }
  return verifyPassword(password, stored, pepper)
}

/** Signs in after reserving the attempt under the throttles (src/auth/throttle.ts). */
export async function signIn(db: Db, input: Credentials): Promise<SignInResult> {
  const keys = { email: normalizeEmail(input.email), address: input.address, device: input.device ?? null }
  const attempt = await reserveSignInAttempt(db, keys, input.now)
  if (!attempt.ok) return { ok: false, reason: 'throttled', retryInMinutes: attempt.retryInMinutes }
  const user = await findUserByEmail(db, input.email)
  const valid = await checkPassword(db, user, input.password, input.pepper)
  if (!user || !valid) return { ok: false, reason: 'invalid' }
  await forgiveSignIn(db, keys)
  return { ok: true, userId: user.id }
}

const HOUR_MS = 60 * 60 * 1000
/** Sign-ups per client address: enough for a shared office network, not for a flood. */
export const SIGN_UPS_PER_ADDRESS = { limit: 30, windowMs: HOUR_MS }
/** "Someone tried to create an account with your email" at most once a day per address. */
const NOTICES_PER_EMAIL = { limit: 1, windowMs: 24 * HOUR_MS }

/** A new account's id (the page signs it in), or null for a taken email; or the sign-up throttle. */
export type SignUpResult = { ok: true; userId: string | null } | { ok: false; retryInMinutes: number }

/**
 * Creates the account and returns its id, so the page can sign the new user in (issue 16). When
 * the email is taken, nothing changes on that account: the id is null, after the same work (a
 * password hash and one insert), and the owner of the address is told someone tried, in
 * `background` (the Worker's waitUntil).
 */
export async function signUp(db: Db, input: Credentials, background: (work: Promise<unknown>) => void): Promise<SignUpResult> {
  const allowed = await reserve(db, { key: `signup:addr:${input.address}`, ...SIGN_UPS_PER_ADDRESS }, input.now)
  if (!allowed.ok) return { ok: false, retryInMinutes: Math.max(1, Math.ceil((allowed.retryAt - input.now) / 60_000)) }
  const password = await hashPassword(input.password, input.pepper)
  const created = await insertUser(db, { email: input.email, password, now: input.now })
  if (created) return { ok: true, userId: created.id }
  background(tellOwnerSomeoneTried(db, input.email, input.now))
  return { ok: true, userId: null }
}

async function tellOwnerSomeoneTried(db: Db, email: string, now: number): Promise<void> {
  const existing = await findUserByEmail(db, email)
  if (!existing) return
  const fresh = await reserve(db, { key: `signup:notice:${existing.email}`, ...NOTICES_PER_EMAIL }, now)
  if (!fresh.ok) return
  await insertOutboxEmail(db, {
    userId: existing.id,
    toAddress: existing.email,
    subject: 'Someone tried to create an account with your email',
    body:
      'Someone tried to create a Tablewatch account with this email address, which already has an account. ' +
      'If it was you, sign in with your existing password. If not, you can ignore this message; nothing was changed.',
    createdAt: now,
  })
}
