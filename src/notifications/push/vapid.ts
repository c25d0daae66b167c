// The service's VAPID key pair (RFC 8292): one P-256 private key as a JWK in the VAPID_PRIVATE_KEY
// secret. The public key browsers subscribe with (the "applicationServerKey") is derived from it,
// so the two can never disagree. The subject is VAPID_SUBJECT (a mailto: or https: contact the push
// services may use), else the address of MAIL_FROM, else the service's own origin.
import { fromBase64Url, toBase64Url } from './base64url'

export interface Vapid {
  /** The private scalar d, base64url (32 bytes). */
  privateKey: string
  /** The uncompressed P-256 point (65 bytes), base64url: what `pushManager.subscribe` takes. */
  publicKey: string
  subject: string
}

type VapidEnv = Pick<Cloudflare.Env, 'VAPID_PRIVATE_KEY' | 'VAPID_SUBJECT' | 'MAIL_FROM'>

function privateJwkOf(text: string | undefined): { x: string; y: string; d: string } | null {
  if (!text) return null
  let jwk: unknown
  try {
    jwk = JSON.parse(text)
  } catch {
    return null
  }
  if (typeof jwk !== 'object' || jwk === null) return null
  const { kty, crv, x, y, d } = jwk as Record<string, unknown>
  if (kty !== 'EC' || crv !== 'P-256' || typeof x !== 'string' || typeof y !== 'string' || typeof d !== 'string') return null
  if ([x, y, d].some((part) => fromBase64Url(part)?.length !== 32)) return null
  return { x, y, d }
}

function subjectOf(env: VapidEnv, baseUrl: string): string {
  if (env.VAPID_SUBJECT) return env.VAPID_SUBJECT
  const address = env.MAIL_FROM ? (/<([^>]+)>/.exec(env.MAIL_FROM)?.[1] ?? env.MAIL_FROM) : null
  return address?.includes('@') ? `mailto:${address.trim()}` : baseUrl
}

/** The deployment's VAPID key, or null when push is not set up (no key, or not a P-256 private JWK). */
export function vapidOf(env: VapidEnv, baseUrl: string): Vapid | null {
  const privateJwk = privateJwkOf(env.VAPID_PRIVATE_KEY)
  if (!privateJwk) return null
  const x = fromBase64Url(privateJwk.x)
  const y = fromBase64Url(privateJwk.y)
  if (!x || !y) return null
  const point = new Uint8Array(65)
  point[0] = 0x04
  point.set(x, 1)
  point.set(y, 33)
  return { privateKey: privateJwk.d, publicKey: toBase64Url(point), subject: subjectOf(env, baseUrl) }
}
