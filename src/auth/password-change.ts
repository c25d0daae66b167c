// Changing the password: the current one is checked under the sign-in throttles (it is a
// password check like any other), the new hash replaces the old one only if nothing changed it
// meanwhile, and the owner is told by email. The route then ends every session.
import type { Db } from '../db/client'
import { insertOutboxEmail } from '../db/notifications'
import { findUserById, normalizeEmail, replacePassword, storedPassword } from '../db/users'
import { checkPassword } from './accounts'
import { hashPassword } from './password'
import { forgiveSignIn, reserveSignInAttempt } from './throttle'

export type PasswordChange =
  | { ok: true }
  | { ok: false; reason: 'wrong_password' | 'changed_meanwhile' }
  | { ok: false; reason: 'throttled'; retryInMinutes: number }

export async function changePassword(
  db: Db,
  input: { userId: string; current: string; next: string; address: string; now: number; pepper: string },
): Promise<PasswordChange> {
  const user = await findUserById(db, input.userId)
  if (!user) return { ok: false, reason: 'wrong_password' }
  const keys = { email: normalizeEmail(user.email), address: input.address }
  const attempt = await reserveSignInAttempt(db, keys, input.now)
  if (!attempt.ok) return { ok: false, reason: 'throttled', retryInMinutes: attempt.retryInMinutes }
  if (!(await checkPassword(db, user, input.current, input.pepper))) return { ok: false, reason: 'wrong_password' }
  await forgiveSignIn(db, keys)
  // Read again: the check may have peppered a hash stored before peppering.
  const checked = await findUserById(db, input.userId)
  const previous = checked ? storedPassword(checked) : null
  if (!checked || !previous) return { ok: false, reason: 'changed_meanwhile' }
  if (!(await replacePassword(db, checked.id, previous, await hashPassword(input.next, input.pepper)))) {
    return { ok: false, reason: 'changed_meanwhile' }
  }
  await insertOutboxEmail(db, {
    userId: checked.id,
    toAddress: checked.email,
    subject: 'Your Tablewatch password was changed',
    body: 'The password of your Tablewatch account was just changed, and every session of the account was signed out.',
    createdAt: input.now,
  })
  return { ok: true }
}
