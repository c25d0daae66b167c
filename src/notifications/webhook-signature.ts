// Signing the alert webhook, so a receiver can tell Tablewatch's posts from anyone else's and
// refuse a replayed one: HMAC-SHA-256, under the user's own signing secret, over
// `<timestamp>.<body>` (the timestamp in whole Unix seconds, the body byte for byte as sent). Two
// headers carry it: `Tablewatch-Timestamp` and `Tablewatch-Signature: v1=<hex>`. The developers
// page documents how to check it; `verifyWebhookSignature` is that check, as a receiver makes it.
// Self-contained on purpose: whichever module delivers the webhook calls `signatureHeaders`.

export const TIMESTAMP_HEADER = 'Tablewatch-Timestamp'
export const SIGNATURE_HEADER = 'Tablewatch-Signature'
/** How old a signed post a receiver should still accept (and how far in the future). */
export const SIGNATURE_TOLERANCE_SECONDS = 300

const SECRET_PREFIX = 'whsec_'
const encoder = new TextEncoder()

/** A new signing secret: 32 random bytes, base64url, recognisable by its prefix. */
export function newWebhookSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  const base64 = btoa(String.fromCharCode(...bytes))
  return SECRET_PREFIX + base64.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
}

async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(message)))
  return [...mac].map((byte) => byte.toString(16).padStart(2, '0')).join('')
}

/** The two headers of a signed post of `body` at `nowMs`. */
export async function signatureHeaders(secret: string, body: string, nowMs: number): Promise<Record<string, string>> {
  const timestamp = String(Math.floor(nowMs / 1000))
  return { [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: `v1=${await hmacHex(secret, `${timestamp}.${body}`)}` }
}

/** A receiver's check: the signature matches and the timestamp is within the tolerance of `nowMs`. */
export async function verifyWebhookSignature(secret: string, headers: Headers, body: string, nowMs: number): Promise<boolean> {
  const timestamp = headers.get(TIMESTAMP_HEADER) ?? ''
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowMs / 1000 - Number(timestamp)) > SIGNATURE_TOLERANCE_SECONDS) return false
  const expected = `v1=${await hmacHex(secret, `${timestamp}.${body}`)}`
  const given = (headers.get(SIGNATURE_HEADER) ?? '').split(',').map((part) => part.trim())
  return given.some((candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected))
}

function timingSafeEqual(a: string, b: string): boolean {
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return diff === 0
}
