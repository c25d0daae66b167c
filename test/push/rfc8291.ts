// The browser's side of Web Push, for tests: a subscription's keys, and the decryption a browser
// does (RFC 8291, section 3.3-3.4 with RFC 8188's aes128gcm framing) and the VAPID check a push service
// does (RFC 8292, section 2-3), in Web Crypto. Written from the RFCs, not from the library under test.

const text = new TextEncoder()
/** Bytes on an ArrayBuffer, as Web Crypto's BufferSource wants them in the DOM typings. */
type Bytes = Uint8Array<ArrayBuffer>
const utf8 = (value: string): Bytes => new Uint8Array(text.encode(value))

export function b64u(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}

export function unb64u(value: string): Bytes {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/')
  return Uint8Array.from(atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4)), (c) => c.charCodeAt(0))
}

const concat = (...parts: Uint8Array[]): Bytes => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

async function hkdf(salt: Bytes, ikm: Bytes, info: Bytes, length: number): Promise<Bytes> {
  const key = await crypto.subtle.importKey('raw', ikm, 'HKDF', false, ['deriveBits'])
  return new Uint8Array(await crypto.subtle.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt, info }, key, length * 8))
}

export interface BrowserKeys {
  keyPair: CryptoKeyPair
  /** ua_public: the uncompressed point, 65 bytes. */
  publicKey: Bytes
  authSecret: Bytes
}

export async function browserKeys(): Promise<BrowserKeys> {
  const keyPair = (await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits'])) as CryptoKeyPair
  const publicKey = new Uint8Array((await crypto.subtle.exportKey('raw', keyPair.publicKey)) as ArrayBuffer)
  return { keyPair, publicKey, authSecret: crypto.getRandomValues(new Uint8Array(16)) }
}

/** RFC 8291, section 3.4 + RFC 8188, section 2: one record (the message fits one), padding delimiter 0x02. */
export async function decryptPush(received: Uint8Array, keys: BrowserKeys): Promise<string> {
  const body: Bytes = new Uint8Array(received)
  const salt = body.slice(0, 16)
  const recordSize = new DataView(body.buffer, body.byteOffset + 16, 4).getUint32(0)
  const idLength = body[20] ?? 0
  const asPublic = body.slice(21, 21 + idLength)
  const ciphertext = body.slice(21 + idLength)
  if (idLength !== 65 || ciphertext.length > recordSize) throw new Error('not one aes128gcm record keyed by a P-256 point')
  const asKey = await crypto.subtle.importKey('raw', asPublic, { name: 'ECDH', namedCurve: 'P-256' }, false, [])
  // Web Crypto names the peer's key `public` (workers-types spells it `$public`): passed as a variable.
  const ecdh = { name: 'ECDH', public: asKey }
  const ecdhSecret = new Uint8Array(await crypto.subtle.deriveBits(ecdh, keys.keyPair.privateKey, 256))
  const keyInfo = concat(utf8('WebPush: info\0'), keys.publicKey, asPublic)
  const ikm = await hkdf(keys.authSecret, ecdhSecret, keyInfo, 32)
  const cek = await hkdf(salt, ikm, utf8('Content-Encoding: aes128gcm\0'), 16)
  const nonce = await hkdf(salt, ikm, utf8('Content-Encoding: nonce\0'), 12)
  const aes = await crypto.subtle.importKey('raw', cek, 'AES-GCM', false, ['decrypt'])
  const plain = new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: nonce }, aes, ciphertext))
  let end = plain.length - 1
  while (end >= 0 && plain[end] === 0) end--
  if (plain[end] !== 2) throw new Error('the last record must end with the delimiter 0x02')
  return new TextDecoder().decode(plain.slice(0, end))
}

/** RFC 8292, section 3: `vapid t=<JWT>, k=<public key>`; the JWT is ES256-signed by k for this push service's origin. */
export async function verifiedVapid(
  authorization: string | null,
  endpoint: string,
): Promise<{ publicKey: string; claims: Record<string, unknown> }> {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '')
  if (!match?.[1] || !match[2]) throw new Error('no vapid Authorization header')
  const [header, payload, signature] = match[1].split('.')
  if (!header || !payload || !signature) throw new Error('not a JWT')
  const key = await crypto.subtle.importKey('raw', unb64u(match[2]), { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify'])
  const valid = await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, unb64u(signature), utf8(`${header}.${payload}`))
  if (!valid) throw new Error('the VAPID signature does not verify')
  const claims = JSON.parse(new TextDecoder().decode(unb64u(payload))) as Record<string, unknown>
  if (claims.aud !== new URL(endpoint).origin) throw new Error('the VAPID audience is not the push service')
  return { publicKey: match[2], claims }
}
