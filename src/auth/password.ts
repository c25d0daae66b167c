// Password hashing: PBKDF2-SHA256 through WebCrypto with a per-user 16-byte salt.
// Cloudflare's runtime refuses more than 100,000 iterations ("Pbkdf2 failed: iteration counts
// above 100000 are not supported"); the open-source workerd behind wrangler dev and the tests
// does not enforce that limit (measured: 5,000,000 pass), so the cap is a constant here and we
// use exactly it: the highest count production allows. See docs/decisions.md.
import { fromBase64, randomBytes, toBase64 } from './bytes'

export const PBKDF2_ITERATIONS = 100_000
const SALT_BYTES = 16
const HASH_BITS = 256

export interface PasswordHash {
  hash: string
  salt: string
  iterations: number
}

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(password), 'PBKDF2', false, ['deriveBits'])
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, key, HASH_BITS)
  return new Uint8Array(bits)
}

export async function hashPassword(password: string, iterations: number = PBKDF2_ITERATIONS): Promise<PasswordHash> {
  const salt = randomBytes(SALT_BYTES)
  const hash = await derive(password, salt, iterations)
  return { hash: toBase64(hash), salt: toBase64(salt), iterations }
}

export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  // A stored count the runtime would refuse (or a tampered row asking for endless work) never matches.
  if (!Number.isInteger(stored.iterations) || stored.iterations < 1 || stored.iterations > PBKDF2_ITERATIONS) return false
  const expected = fromBase64(stored.hash)
  const actual = await derive(password, fromBase64(stored.salt), stored.iterations)
  if (actual.byteLength !== expected.byteLength) return false
  return crypto.subtle.timingSafeEqual(actual, expected)
}

/**
 * Spends the same time as a real check when the email is unknown, so the response time does
 * not tell whether an account exists.
 */
export async function verifyAgainstNothing(password: string): Promise<false> {
  await derive(password, randomBytes(SALT_BYTES), PBKDF2_ITERATIONS)
  return false
}
