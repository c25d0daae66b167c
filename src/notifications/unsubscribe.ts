// Unsubscribe links that need no sign-in: /unsubscribe?u=<user id>&t=<HMAC of the user id>. The
// HMAC key is derived (HKDF) from the platform-token secret with its own label, so no new
// secret is needed and the token is useless for anything but turning this user's emails off.
import { derivedHmacKey } from '../lib/derived-hmac-key'

/** The HMAC key of unsubscribe tokens: derived from the platform-token secret with its own label. */
const unsubscribeKey = (secret: string) => derivedHmacKey(secret, 'tablewatch unsubscribe v1')

const toBase64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '')

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null
  try {
    return Uint8Array.from(atob(text.replaceAll('-', '+').replaceAll('_', '/')), (c) => c.charCodeAt(0))
  } catch {
    return null // not base64 at all (a length no encoding produces)
  }
}

async function tokenFor(secret: string, userId: string): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', await unsubscribeKey(secret), new TextEncoder().encode(userId))
  return toBase64Url(new Uint8Array(mac))
}

export async function unsubscribeUrl(env: Pick<Cloudflare.Env, 'PLATFORM_TOKEN_KEY'>, baseUrl: string, userId: string): Promise<string> {
  const token = await tokenFor(env.PLATFORM_TOKEN_KEY, userId)
  return `${baseUrl}/unsubscribe?u=${encodeURIComponent(userId)}&t=${token}`
}

/** True when `token` is this user's unsubscribe token. */
export async function validUnsubscribe(env: Pick<Cloudflare.Env, 'PLATFORM_TOKEN_KEY'>, userId: string, token: string): Promise<boolean> {
  const mac = fromBase64Url(token)
  // HMAC verification compares in constant time.
  return mac !== null && crypto.subtle.verify('HMAC', await unsubscribeKey(env.PLATFORM_TOKEN_KEY), mac, new TextEncoder().encode(userId))
}
