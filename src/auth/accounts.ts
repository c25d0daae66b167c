// Sign-up and sign-in rules, free of HTTP: the web routes call these and render the result.
// Neither answer tells whether an email has an account.
import type { Db } from '../db/client'
import { insertOutboxEmail } from '../db/notifications'
import { findUserByEmail, insertUser, normalizeEmail } from '../db/users'
import { hashPassword, verifyAgainstNothing, verifyPassword } from './password'
import { clearFailures, lockedForMinutes, recordFailure } from './throttle'

export type SignInResult =
  | { ok: true; userId: string }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'throttled'; retryInMinutes: number }

export async function signIn(db: Db, input: { email: string; password: string; address: string; now: number }): Promise<SignInResult> {
  const keys = { email: normalizeEmail(input.email), address: input.address }
  const lockedMinutes = await lockedForMinutes(db, keys, input.now)
  if (lockedMinutes !== null) return { ok: false, reason: 'throttled', retryInMinutes: lockedMinutes }
  const user = await findUserByEmail(db, input.email)
  const valid =
    user?.passwordHash && user.passwordSalt && user.passwordIterations
      ? await verifyPassword(input.password, { hash: user.passwordHash, salt: user.passwordSalt, iterations: user.passwordIterations })
      : await verifyAgainstNothing(input.password)
  if (!user || !valid) {
    await recordFailure(db, keys, input.now)
    return { ok: false, reason: 'invalid' }
  }
  await clearFailures(db, keys)
  return { ok: true, userId: user.id }
}

/**
 * Creates the account. When the email is taken, nothing changes for the visitor: the same
 * answer comes back, and the owner of the address gets an email saying someone tried.
 */
export async function signUp(db: Db, input: { email: string; password: string; now: number }): Promise<void> {
  const password = await hashPassword(input.password)
  const created = await insertUser(db, { email: input.email, password, now: input.now })
  if (created) return
  const existing = await findUserByEmail(db, input.email)
  if (!existing) return
  await insertOutboxEmail(db, {
    userId: existing.id,
    toAddress: existing.email,
    subject: 'Someone tried to create an account with your email',
    body:
      'Someone tried to create a Tablewatch account with this email address, which already has an account. ' +
      'If it was you, sign in with your existing password. If not, you can ignore this message; nothing was changed.',
    createdAt: input.now,
  })
}
