// The platform sign-in under way between the diner's steps (a code by text message): what must
// stay the same across them (the phone number, and the platform's `device_token`, to which the
// code is tied: docs/platform.md, "Sign-in"), the challenge the platform may ask, and the key a
// paired device seals the session to. Kept server-side only, one per user, for minutes, and
// sealed (AES-GCM, bound to the user and to this sign-in), so neither a page nor a stolen row
// gives it away.
import { advanceSignIn, endSignIn, findSignIn, type SignInRow, saveSignIn, takeSignInTry } from '../db/platform-sign-ins'
import type { PrivateJwk } from '../lib/sealed-to-key'
import { open, seal } from '../lib/secret-box'
import type { CodeChallenge, CodeSender } from '../platform/api'
import type { Deps } from '../runtime/deps'

/** How long a code may be typed in after it was asked for. */
const SIGN_IN_TTL_MS = 10 * 60 * 1000
/** Codes (and emails) tried against one sign-in before a new code is needed. */
const SIGN_IN_TRIES = 5

export type SignInVia = SignInRow['via']

interface Secrets {
  mobileNumber: string
  /** The platform's device token the code is tied to, and this sign-in's CDN cookies (from the cloud; a device keeps its own). */
  sender: CodeSender
  challenge: CodeChallenge | null
  /** For a sign-in made by the paired device: the private key its session is sealed to. */
  receiverKey: PrivateJwk | null
  publicKey: { x: string; y: string } | null
}

export interface PendingSignIn extends Secrets {
  id: string
  userId: string
  via: SignInVia
  step: SignInRow['step']
  numberHint: string
  attempts: number
}

const owner = (userId: string, id: string) => `${userId}:platform-sign-in:${id}`

/** What a sealed value made for this sign-in is bound to (sealed-to-key.ts). */
export const sealContext = (pending: Pick<PendingSignIn, 'userId' | 'id'>) => `platform-sign-in ${pending.userId} ${pending.id}`

export async function startPending(deps: Deps, userId: string, via: SignInVia, secrets: Secrets): Promise<PendingSignIn> {
  const id = crypto.randomUUID()
  const sealed = await seal(deps.env.PLATFORM_TOKEN_KEY, JSON.stringify(secrets), owner(userId, id))
  const numberHint = secrets.mobileNumber.slice(-4)
  await saveSignIn(deps.db, {
    userId,
    id,
    via,
    step: 'code_sent',
    sealed: sealed.ciphertext,
    iv: sealed.iv,
    attempts: 0,
    numberHint,
    createdAt: deps.now,
    expiresAt: deps.now + SIGN_IN_TTL_MS,
  })
  return { ...secrets, id, userId, via, step: 'code_sent', numberHint, attempts: 0 }
}

/** The user's sign-in under way, or null when there is none (never started, expired, or ended). */
export async function pendingOf(deps: Deps, userId: string): Promise<PendingSignIn | null> {
  const row = await findSignIn(deps.db, userId, deps.now)
  if (!row) return null
  try {
    const secrets = JSON.parse(
      await open(deps.env.PLATFORM_TOKEN_KEY, { ciphertext: row.sealed, iv: row.iv }, owner(userId, row.id)),
    ) as Secrets
    return { ...secrets, id: row.id, userId, via: row.via, step: row.step, numberHint: row.numberHint, attempts: row.attempts }
  } catch {
    return null // the key was rotated: the diner asks for a new code
  }
}

/** Counts a try; false when this sign-in has used its tries. */
export function takeTry(deps: Deps, pending: PendingSignIn): Promise<boolean> {
  return takeSignInTry(deps.db, pending.userId, pending.id, SIGN_IN_TRIES)
}

/**
 * Stores the sign-in as a step left it: its CDN cookies (a call may have changed them), and the
 * challenge once the platform asked for the account's email. Sealed like the rest.
 */
export async function keepPending(deps: Deps, pending: PendingSignIn, challenge: CodeChallenge | null = pending.challenge): Promise<void> {
  const { id, userId, mobileNumber, sender, receiverKey, publicKey } = pending
  const secrets: Secrets = { mobileNumber, sender, challenge, receiverKey, publicKey }
  const sealed = await seal(deps.env.PLATFORM_TOKEN_KEY, JSON.stringify(secrets), owner(userId, id))
  const step = challenge ? 'challenge' : pending.step
  await advanceSignIn(deps.db, userId, id, { step, sealed: sealed.ciphertext, iv: sealed.iv })
}

export function endPending(deps: Deps, pending: Pick<PendingSignIn, 'userId' | 'id'>): Promise<void> {
  return endSignIn(deps.db, pending.userId, pending.id)
}
