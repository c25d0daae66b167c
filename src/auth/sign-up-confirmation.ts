// Sign-up by confirmation link. The account is created only when the link
// mailed to the address is used, so the form's answer is the same whether or not the address
// already has an account. The link carries the pending account itself, sealed (AES-GCM with the
// PLATFORM_TOKEN_KEY secret, its purpose bound as additional data): the email, the password hash
// (PBKDF2, peppered) and an expiry. Nothing is stored before the link is used; a used link finds
// the email taken and creates nothing.
import { z } from 'zod'
import { open, seal } from '../lib/secret-box'
import type { PasswordHash } from './password'

const CONFIRMATION_LIFETIME_MS = 24 * 60 * 60 * 1000
const PURPOSE = 'sign-up-confirmation'

const Pending = z.object({
  email: z.string().max(320),
  password: z.object({ hash: z.string(), salt: z.string(), iterations: z.number().int(), pepperVersion: z.number().int().nullable() }),
  expiresAt: z.number(),
})
export type PendingAccount = z.infer<typeof Pending>

const toUrl = (base64: string) => base64.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
const fromUrl = (text: string) => {
  const base64 = text.replaceAll('-', '+').replaceAll('_', '/')
  return base64 + '='.repeat((4 - (base64.length % 4)) % 4)
}

export async function sealPendingAccount(key: string, email: string, password: PasswordHash, now: number): Promise<string> {
  const pending: PendingAccount = { email, password, expiresAt: now + CONFIRMATION_LIFETIME_MS }
  const sealed = await seal(key, JSON.stringify(pending), PURPOSE)
  return `${toUrl(sealed.iv)}.${toUrl(sealed.ciphertext)}`
}

/** The pending account of a link, or null when it is forged, damaged or expired. */
export async function openPendingAccount(key: string, token: string, now: number): Promise<PendingAccount | null> {
  const [iv, ciphertext] = token.split('.')
  if (!iv || !ciphertext || token.length > 2048) return null
  try {
    const parsed = Pending.safeParse(JSON.parse(await open(key, { iv: fromUrl(iv), ciphertext: fromUrl(ciphertext) }, PURPOSE)))
    return parsed.success && parsed.data.expiresAt > now ? parsed.data : null
  } catch {
    return null
  }
}
