// AES-GCM encryption of secrets at rest (the platform token). The key comes from a Worker
// secret (base64 of 32 bytes); the IV is random per message; the additional data binds a
// ciphertext to its owner, so a row copied to another user does not decrypt.

const encoder = new TextEncoder()
const decoder = new TextDecoder()

const keys = new Map<string, Promise<CryptoKey>>()

function keyFrom(base64Key: string): Promise<CryptoKey> {
  let key = keys.get(base64Key)
  if (!key) {
    const raw = Uint8Array.from(atob(base64Key), (c) => c.charCodeAt(0))
    if (raw.length !== 32) throw new Error('the encryption key must be 32 bytes (base64)')
    key = crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt'])
    keys.set(base64Key, key)
  }
  return key
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0))

export interface Sealed {
  ciphertext: string
  iv: string
}

export async function seal(base64Key: string, plaintext: string, owner: string): Promise<Sealed> {
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const data = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: encoder.encode(owner) },
    await keyFrom(base64Key),
    encoder.encode(plaintext),
  )
  return { ciphertext: toBase64(new Uint8Array(data)), iv: toBase64(iv) }
}

export async function open(base64Key: string, sealed: Sealed, owner: string): Promise<string> {
  const data = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: fromBase64(sealed.iv), additionalData: encoder.encode(owner) },
    await keyFrom(base64Key),
    fromBase64(sealed.ciphertext),
  )
  return decoder.decode(data)
}
