// Password hashing: PBKDF2-SHA256 through WebCrypto with a per-user 16-byte salt, then an
// HMAC-SHA256 of the result under a pepper that is a Worker secret (PASSWORD_PEPPER), so a
// copy of D1 alone is not enough to test guesses offline.
// Cloudflare's runtime refuses more than 100,000 iterations ("Pbkdf2 failed: iteration counts
// above 100000 are not supported"); the open-source workerd behind wrangler dev and the tests
// does not enforce that limit (measured: 5,000,000 pass), so the cap is a constant here and we
// use exactly it: the highest count production allows. See docs/decisions/auth.md.
// Hashes from before the pepper (pepperVersion null) are PBKDF2 alone; the pepper is applied to
// the stored result, so they are upgraded in place without the password (upgradeToPepper).
import { fromBase64, randomBytes, toBase64 } from './bytes'

/** The shortest password the sign-up, reset and change forms accept. */
export const PASSWORD_MIN_LENGTH = 10

export const PBKDF2_ITERATIONS = 100_000
/** The pepper in use: PASSWORD_PEPPER. A rotation would add a second secret and version 2. */
const PEPPER_VERSION = 1
const SALT_BYTES = 16
const HASH_BITS = 256

export interface PasswordHash {
  hash: string
  salt: string
  iterations: number
  /** PEPPER_VERSION for a peppered hash, null for one stored before peppering. */
  pepperVersion: number | null
}

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(password), 'PBKDF2', false, ['deriveBits'])
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, key, HASH_BITS)
  return new Uint8Array(bits)
}

async function pepper(secret: string, derived: Uint8Array): Promise<Uint8Array> {
  if (!secret) throw new Error('PASSWORD_PEPPER is not configured')
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, derived))
}

export async function hashPassword(password: string, pepperSecret: string, iterations: number = PBKDF2_ITERATIONS): Promise<PasswordHash> {
  const salt = randomBytes(SALT_BYTES)
  const hash = await pepper(pepperSecret, await derive(password, salt, iterations))
  return { hash: toBase64(hash), salt: toBase64(salt), iterations, pepperVersion: PEPPER_VERSION }
}

/** A hash from before peppering, peppered: the same password verifies against both. */
export async function upgradeToPepper(stored: PasswordHash, pepperSecret: string): Promise<PasswordHash> {
  if (stored.pepperVersion === PEPPER_VERSION) return stored
  const hash = await pepper(pepperSecret, fromBase64(stored.hash))
  return { ...stored, hash: toBase64(hash), pepperVersion: PEPPER_VERSION }
}

export async function verifyPassword(password: string, stored: PasswordHash, pepperSecret: string): Promise<boolean> {
  // A stored count the runtime would refuse (or a tampered row asking for endless work) never matches.
  if (!Number.isInteger(stored.iterations) || stored.iterations < 1 || stored.iterations > PBKDF2_ITERATIONS) return false
  const expected = fromBase64(stored.hash)
  const derived = await derive(password, fromBase64(stored.salt), stored.iterations)
  const actual = stored.pepperVersion === null ? derived : await pepper(pepperSecret, derived)
  if (stored.pepperVersion !== null && stored.pepperVersion !== PEPPER_VERSION) return false
  if (actual.byteLength !== expected.byteLength) return false
  return crypto.subtle.timingSafeEqual(actual, expected)
}

/**
 * Spends the same time as a real check when the email is unknown, so the response time does
 * not tell whether an account exists.
 */
export async function verifyAgainstNothing(password: string, pepperSecret: string): Promise<false> {
  await pepper(pepperSecret, await derive(password, randomBytes(SALT_BYTES), PBKDF2_ITERATIONS))
  return false
}
