// Sign-up and sign-in rules, free of HTTP: the web routes call these and render the result.
// Neither answer tells whether an email has an account.
import type { Db } from '../db/client'
import { reserve } from '../db/rate-limits'
import { findUserByEmail, insertUser, normalizeEmail, replacePassword, storedPassword, type UserRow } from '../db/users'
import { isLocalAddressKey } from '../lib/address-key'
import { hashPassword, type PasswordHash, upgradeToPepper, verifyAgainstNothing, verifyPassword } from './password'
import { openPendingAccount, sealPendingAccount } from './sign-up-confirmation'
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
const SIGN_UPS_PER_ADDRESS = { limit: 30, windowMs: HOUR_MS }
/** "Someone tried to create an account with your email" at most once a day per address. */
const NOTICES_PER_EMAIL = { limit: 1, windowMs: 24 * HOUR_MS }

/** Sign-up answers the same for every address; only the throttle differs. */
export type SignUpResult = { ok: true } | { ok: false; retryInMinutes: number }

/** Confirmation mails per address: a few retries, not a way to flood someone's inbox. */
const CONFIRMATIONS_PER_EMAIL = { limit: 3, windowMs: HOUR_MS }

/** A mail about the account itself (no unsubscribe footer: it is not an alert). */
export interface AccountMail {
  /** The account's id, or '' for an address without one yet (a sign-up confirmation). */
  userId: string
  to: string
  subject: string
  body: string
}

export interface SignUpMail {
  /** Sends an account mail (src/notifications/account-mail.ts). */
  send(mail: AccountMail): Promise<void>
  /** The confirmation link for a sealed pending account. */
  confirmUrl(token: string): string
  /** PLATFORM_TOKEN_KEY, which seals the pending account into the link. */
  sealKey: string
}

/**
 * Answers every valid sign-up the same way, so the form never tells whether an address has an
 * account (docs/decisions/auth.md). The mail decides: a new address gets a
 * confirmation link that creates the account; an existing one gets a note that someone tried.
 * Both are sent in `background` (the Worker's waitUntil), after the same work up front (a
 * password hash), so neither the answer nor its timing differs.
 */
export async function signUp(
  db: Db,
  input: Credentials,
  mail: SignUpMail,
  background: (work: Promise<unknown>) => void,
): Promise<SignUpResult> {
  // Not counted for a local run (no address, or loopback): Cloudflare sets CF-Connecting-IP to the
  // client's public address on every request to a deployment, and the end-to-end suite signs up
  // some forty diners from this machine (docs/decisions/auth.md).
  if (!isLocalAddressKey(input.address)) {
    const allowed = await reserve(db, { key: `signup:addr:${input.address}`, ...SIGN_UPS_PER_ADDRESS }, input.now)
    if (!allowed.ok) return { ok: false, retryInMinutes: Math.max(1, Math.ceil((allowed.retryAt - input.now) / 60_000)) }
  }
  const password = await hashPassword(input.password, input.pepper)
  background(mailTheAddress(db, normalizeEmail(input.email), password, mail, input.now))
  return { ok: true }
}

async function mailTheAddress(db: Db, email: string, password: PasswordHash, mail: SignUpMail, now: number): Promise<void> {
  const existing = await findUserByEmail(db, email)
  if (existing) return tellOwnerSomeoneTried(db, existing, mail, now)
  if (!(await reserve(db, { key: `signup:confirm:${email}`, ...CONFIRMATIONS_PER_EMAIL }, now)).ok) return
  const token = await sealPendingAccount(mail.sealKey, email, password, now)
  await mail.send({
    userId: '',
    to: email,
    subject: 'Confirm your Tablewatch account',
    body:
      `Open this link to finish creating your Tablewatch account: ${mail.confirmUrl(token)}\n\n` +
      'The link works for 24 hours. If you did not sign up, ignore this message: no account is created without it.',
  })
}

async function tellOwnerSomeoneTried(db: Db, existing: UserRow, mail: SignUpMail, now: number): Promise<void> {
  const fresh = await reserve(db, { key: `signup:notice:${existing.email}`, ...NOTICES_PER_EMAIL }, now)
  if (!fresh.ok) return
  await mail.send({
    userId: existing.id,
    to: existing.email,
    subject: 'Someone tried to create an account with your email',
    body:
      'Someone tried to create a Tablewatch account with this email address, which already has an account. ' +
      'If it was you, sign in with your existing password. If not, you can ignore this message; nothing was changed.',
  })
}

export type ConfirmResult = { ok: true; userId: string; email: string } | { ok: false; reason: 'invalid' | 'taken' }

/**
 * What a confirmation link would do, read when its page opens (it creates nothing): create the
 * account, or nothing because it is forged or expired ('invalid') or was used already ('taken').
 */
export async function checkSignUpLink(db: Db, sealKey: string, token: string, now: number): Promise<'ok' | 'invalid' | 'taken'> {
  const pending = await openPendingAccount(sealKey, token, now)
  if (!pending) return 'invalid'
  return (await findUserByEmail(db, pending.email)) ? 'taken' : 'ok'
}

/** Creates the account of a confirmation link; a used, forged or expired link creates nothing. */
export async function confirmSignUp(db: Db, sealKey: string, token: string, now: number): Promise<ConfirmResult> {
  const pending = await openPendingAccount(sealKey, token, now)
  if (!pending) return { ok: false, reason: 'invalid' }
  const created = await insertUser(db, { email: pending.email, password: pending.password, now })
  return created ? { ok: true, userId: created.id, email: pending.email } : { ok: false, reason: 'taken' }
}
