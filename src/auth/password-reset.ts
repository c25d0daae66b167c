// Password reset by email, free of HTTP: the web routes call these.
//
// The form answers every address the same way ("if it has an account, a link is on its way"):
// the lookup and the mail happen in the background, as sign-up's do, and that background does the
// same work for every address: the same statements, the same HMAC, only the mail itself is left
// out where there is no account. Work done only for known addresses slowed the answer down (a
// shared isolate, one D1 primary): a probe measured 57.8 against 39.3 ms.
//
// The link stores nothing: it is `<user id>.<expiry>.<HMAC>` where the HMAC (a key derived from
// PLATFORM_TOKEN_KEY with its own label) covers the user id, the expiry AND the password hash
// stored now. So it works for 30 minutes, and only once: setting a password (through the link or
// any other way) stores a new salted hash, and every link made before stops matching. A database
// that leaks holds no token at all, which is stronger than holding a hash of one; why not a table
// is in docs/decisions/auth.md.
import type { Db } from '../db/client'
import { reserve, takeUnit } from '../db/rate-limits'
import { deleteSessionsOfUser } from '../db/sessions'
import { findUserByEmail, findUserById, normalizeEmail, replacePassword, storedPassword, type UserRow } from '../db/users'
import { derivedHmacKey } from '../lib/derived-hmac-key'
import type { AccountMail } from './accounts'
import { equalStrings, toBase64Url } from './bytes'
import { hashPassword } from './password'
import { forgiveSignIn } from './throttle'

export const RESET_LINK_LIFETIME_MS = 30 * 60 * 1000
const MINUTE_MS = 60_000
/** Reset forms (asking for a link, or setting the password) per client address. */
const RESETS_PER_ADDRESS = { limit: 10, windowMs: 15 * MINUTE_MS }
/** Reset mails per account: a few retries, never a way to flood someone's inbox. */
const RESET_MAILS_PER_EMAIL = { limit: 3, windowMs: 60 * MINUTE_MS }

export interface ResetMail {
  /** Sends an account mail (src/notifications/account-mail.ts). */
  send(mail: AccountMail): Promise<void>
  /** The address of the page that sets the new password, for a token. */
  resetUrl(token: string): string
  /** PLATFORM_TOKEN_KEY (base64), from which the links' HMAC key is derived. */
  keySecret: string
}

export type Throttled = { ok: false; reason: 'throttled'; retryInMinutes: number }

const resetKey = (secret: string) => derivedHmacKey(secret, 'tablewatch password reset v1')

async function macOf(secret: string, userId: string, expiresAt: string, passwordHash: string): Promise<string> {
  const message = new TextEncoder().encode(`${userId}|${expiresAt}|${passwordHash}`)
  return toBase64Url(new Uint8Array(await crypto.subtle.sign('HMAC', await resetKey(secret), message)))
}

function linkToken(secret: string, userId: string, passwordHash: string, now: number): Promise<string> {
  const expiresAt = (now + RESET_LINK_LIFETIME_MS).toString(36)
  return macOf(secret, userId, expiresAt, passwordHash).then((mac) => `${userId}.${expiresAt}.${mac}`)
}

/** A reset link's token for the user as stored now; null for an account without a password. */
export async function resetToken(secret: string, user: UserRow, now: number): Promise<string | null> {
  const stored = storedPassword(user)
  return stored ? linkToken(secret, user.id, stored.hash, now) : null
}

/** The user a token is good for now, or null: forged, damaged, expired or already used. */
export async function userOfResetToken(db: Db, secret: string, token: string, now: number): Promise<UserRow | null> {
  if (token.length > 512) return null
  const [userId, expiresAt, mac, ...rest] = token.split('.')
  if (!userId || !expiresAt || !mac || rest.length > 0) return null
  const expiry = Number.parseInt(expiresAt, 36)
  if (!(expiry > now && expiry <= now + RESET_LINK_LIFETIME_MS)) return null
  const user = await findUserById(db, userId)
  const stored = user ? storedPassword(user) : null
  if (!user || !stored) return null
  return equalStrings(mac, await macOf(secret, userId, expiresAt, stored.hash)) ? user : null
}

async function reserveAddress(db: Db, address: string, now: number): Promise<Throttled | null> {
  const allowed = await reserve(db, { key: `reset:addr:${address}`, ...RESETS_PER_ADDRESS }, now)
  if (allowed.ok) return null
  return { ok: false, reason: 'throttled', retryInMinutes: Math.max(1, Math.ceil((allowed.retryAt - now) / MINUTE_MS)) }
}

/**
 * Asks for a reset link. The answer depends only on the address's budget, never on the email:
 * whether it has an account is looked up in `background` (the Worker's waitUntil).
 */
export async function requestPasswordReset(
  db: Db,
  input: { email: string; address: string; now: number },
  mail: ResetMail,
  background: (work: Promise<unknown>) => void,
): Promise<{ ok: true } | Throttled> {
  const throttled = await reserveAddress(db, input.address, input.now)
  if (throttled) return throttled
  background(mailResetLink(db, normalizeEmail(input.email), mail, input.now))
  return { ok: true }
}

/** The same statements and the same HMAC for every address; the mail only where there is an account. */
async function mailResetLink(db: Db, email: string, mail: ResetMail, now: number): Promise<void> {
  const budget = await takeUnit(db, { key: `reset:email:${email}`, ...RESET_MAILS_PER_EMAIL }, now)
  const user = await findUserByEmail(db, email)
  const stored = user ? storedPassword(user) : null
  // Made (and thrown away) for an address without an account too.
  const token = await linkToken(mail.keySecret, user?.id ?? 'nobody', stored?.hash ?? '', now)
  if (!budget || !user || !stored) return
  await mail.send({
    userId: user.id,
    to: user.email,
    subject: 'Reset your Tablewatch password',
    body:
      `Open this link to choose a new password for your Tablewatch account: ${mail.resetUrl(token)}\n\n` +
      'The link works once, for 30 minutes. Setting a new password signs the account out on every browser and ends its access tokens, connected assistants, paired devices and calendar feed. ' +
      'If you did not ask for this, ignore this message: your password stays as it is.',
  })
}

/** What a reset ends, in the words of its page and its mail. */
export const RESET_ENDED_CREDENTIALS =
  'Every browser was signed out, and every personal access token, connected assistant, paired device and calendar feed address stopped working.'

export type ResetResult = { ok: true; userId: string; email: string } | { ok: false; reason: 'invalid' } | Throttled

/**
 * Sets the new password of a valid link and ends every credential of the account: its sessions
 * here, and through `endOtherCredentials` (the use case above auth) its personal access tokens,
 * assistant connections, paired devices and calendar feed. A reset is what an owner does after a
 * compromise, so nothing made before it keeps working. The new hash replaces exactly the one the
 * link was made for, so of two uses of one link (or a link racing a password change) only one
 * succeeds.
 */
export async function completePasswordReset(
  db: Db,
  input: { token: string; password: string; address: string; now: number; pepper: string },
  mail: ResetMail,
  endOtherCredentials: (userId: string) => Promise<void>,
): Promise<ResetResult> {
  const throttled = await reserveAddress(db, input.address, input.now)
  if (throttled) return throttled
  const user = await userOfResetToken(db, mail.keySecret, input.token, input.now)
  const previous = user ? storedPassword(user) : null
  if (!user || !previous) return { ok: false, reason: 'invalid' }
  if (!(await replacePassword(db, user.id, previous, await hashPassword(input.password, input.pepper)))) {
    return { ok: false, reason: 'invalid' }
  }
  await deleteSessionsOfUser(db, user.id)
  await endOtherCredentials(user.id)
  // A diner who forgot the password has often just used up the sign-in attempts from here: the
  // link proved who they are, so this place starts over (as a successful sign-in does).
  await forgiveSignIn(db, { email: normalizeEmail(user.email), address: input.address })
  await mail.send({
    userId: user.id,
    to: user.email,
    subject: 'Your Tablewatch password was reset',
    body:
      'The password of your Tablewatch account was just reset with a link sent to this address. ' +
      `${RESET_ENDED_CREDENTIALS} Sign in with the new password to make new ones. ` +
      'If this was not you, reset it again at once.',
  })
  return { ok: true, userId: user.id, email: user.email }
}
