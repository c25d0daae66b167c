// Device pairing, shaped like the device authorization grant (RFC 8628): the signed-in
// user starts pairing in Settings and sees a short user code; the device program sends that code
// and gets its own credential (`spd_` + 32 random bytes), shown to the device once and stored
// only as a SHA-256 hash. Codes are single use and expire after 10 minutes.
import type { Db } from '../db/client'
import {
  consumePairing,
  type DeviceRow,
  findDeviceByCredentialHash,
  insertDevice,
  insertPairing,
  markDeviceRevoked,
  touchDevice,
} from '../db/paired-devices'
import { type Budget, release, reserve } from '../db/rate-limits'
import { AppError } from '../errors'
import { newId, randomBase62, sha256Hex } from '../lib/random'

const DEVICE_CREDENTIAL_PREFIX = 'spd_'
export const PAIRING_CODE_LIFETIME_MS = 10 * 60 * 1000
/** RFC 8628, section 6.1: consonants only (no vowels, so no words), case-insensitive, 8 of them: 20^8 codes. */
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ'
const USER_CODE_LENGTH = 8
/**
 * Pairing attempts are limited three ways, each over 15 minutes:
 * - 10 per client address (an IPv6 /64 counts as one address): one place guessing;
 * - 5 per code value: one code tried again and again (a script racing the person typing it);
 * - 300 from everywhere together: guessing spread over many addresses. With 20^8 codes, 300
 *   guesses find a given live code with odds of about 1 in 85 million per window.
 * A right code gives its units back, so people pairing are not counted.
 */
const PAIRING_WINDOW_MS = 15 * 60 * 1000
const PAIRING_BUDGETS = { address: 10, code: 5, everywhere: 300 }

function pairingBudgets(address: string, code: string): Budget[] {
  return [
    { key: `device-pair:${address}`, limit: PAIRING_BUDGETS.address, windowMs: PAIRING_WINDOW_MS },
    { key: `device-pair-code:${code}`, limit: PAIRING_BUDGETS.code, windowMs: PAIRING_WINDOW_MS },
    { key: 'device-pair-everywhere', limit: PAIRING_BUDGETS.everywhere, windowMs: PAIRING_WINDOW_MS },
  ]
}

/** A fresh user code, shown as XXXX-XXXX. */
function newUserCode(): string {
  const picks = crypto.getRandomValues(new Uint8Array(USER_CODE_LENGTH))
  // 256 is not a multiple of 20: values of 240 and above would favour the first letters; re-draw them.
  const letters = [...picks].map((b) => {
    let v = b
    while (v >= 240) v = crypto.getRandomValues(new Uint8Array(1))[0] ?? 0
    return USER_CODE_ALPHABET[v % USER_CODE_ALPHABET.length]
  })
  return `${letters.slice(0, 4).join('')}-${letters.slice(4).join('')}`
}

/** What the user typed, as stored: upper case, without dashes or spaces; null when it cannot be a code. */
function normalizeUserCode(input: string): string | null {
  const letters = input.toUpperCase().replace(/[\s-]/g, '')
  if (letters.length !== USER_CODE_LENGTH) return null
  return [...letters].every((ch) => USER_CODE_ALPHABET.includes(ch)) ? letters : null
}

export async function startPairing(db: Db, userId: string, now: number): Promise<{ userCode: string; expiresAt: number }> {
  const userCode = newUserCode()
  const expiresAt = now + PAIRING_CODE_LIFETIME_MS
  await insertPairing(db, { codeHash: await sha256Hex(normalizeUserCode(userCode) ?? ''), userId, createdAt: now, expiresAt, usedAt: null })
  return { userCode, expiresAt }
}

const wrongCode = () =>
  new AppError('invalid_request', 'That pairing code is not valid. Codes work once and for 10 minutes: start pairing again in Settings.')

/**
 * Exchanges a user code for a new device credential. A wrong, used or expired code is refused
 * the same way; too many wrong codes from one address wait 15 minutes.
 */
export async function completePairing(
  db: Db,
  input: { userCode: string; deviceName: string; address: string; now: number },
): Promise<{ credential: string; device: DeviceRow }> {
  // Every attempt takes a unit of each budget; a right code gives them back.
  const code = normalizeUserCode(input.userCode)
  const budgets = pairingBudgets(input.address, code ?? 'unreadable')
  const taken: string[] = []
  for (const budget of budgets) {
    if (!(await reserve(db, budget, input.now)).ok) {
      for (const key of taken) await release(db, key)
      throw new AppError('request_limit', 'Too many wrong pairing codes. Wait 15 minutes and try again.')
    }
    taken.push(budget.key)
  }
  const userId = code ? await consumePairing(db, await sha256Hex(code), input.now) : null
  if (!userId) throw wrongCode()
  for (const key of taken) await release(db, key)
  const credential = DEVICE_CREDENTIAL_PREFIX + randomBase62(32)
  const device: DeviceRow = {
    id: newId('dev'),
    userId,
    name: input.deviceName,
    credentialHash: await sha256Hex(credential),
    createdAt: input.now,
    lastSeenAt: input.now,
    revokedAt: null,
  }
  await insertDevice(db, device)
  return { credential, device }
}

/** The device a presented credential belongs to, or the 401 a device sees (unknown or revoked). */
export async function deviceFromCredential(db: Db, credential: string, now: number): Promise<DeviceRow> {
  const device = credential.startsWith(DEVICE_CREDENTIAL_PREFIX)
    ? await findDeviceByCredentialHash(db, await sha256Hex(credential))
    : undefined
  if (!device) throw new AppError('unauthorized', 'The device credential is not valid. Pair the device again.')
  if (device.revokedAt !== null)
    throw new AppError('authorization_revoked', 'This device was revoked in Settings. Pair it again to use it.')
  await touchDevice(db, device.id, now)
  return device
}

export function revokeDeviceCredential(db: Db, userId: string, deviceId: string, now: number): Promise<boolean> {
  return markDeviceRevoked(db, userId, deviceId, now)
}
