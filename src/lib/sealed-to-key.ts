// Sealing a secret to a one-time public key (ECDH P-256, HKDF-SHA-256, AES-GCM), WebCrypto only,
// so a Worker and a device program in Node seal and open alike. Used for a platform session a
// paired device signs in to on the user's behalf: the service makes a key pair for that one
// sign-in, the device seals the session to its public key, and only the holder of the private key
// (the sign-in under way, stored sealed) can open it. Whatever carries the sealed value between
// them (the device's object and its results, the device's own journal, a log line) holds nothing
// it could use, and a sealed value made for one sign-in does not open for another (`context`).

const encoder = new TextEncoder()
const decoder = new TextDecoder()
const CURVE = { name: 'ECDH', namedCurve: 'P-256' } as const

export interface SealedToKey {
  /** The sender's one-time public key (JWK of x and y). */
  epk: { x: string; y: string }
  iv: string
  ciphertext: string
}

/** A private key as JSON (a JWK); named here so the Worker's and Node's WebCrypto types both take it. */
export interface PrivateJwk {
  kty: string
  crv?: string
  x?: string
  y?: string
  d?: string
  ext?: boolean
  key_ops?: string[]
}

type Key = Awaited<ReturnType<typeof crypto.subtle.importKey>>

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0))

/** A new key pair: the public half goes to whoever seals, the private half stays (sealed) with the receiver. */
export async function newReceiverKey(): Promise<{ publicKey: { x: string; y: string }; privateKey: PrivateJwk }> {
  const pair = await newPair()
  const [pub, priv] = await Promise.all([jwkOf(pair.publicKey), jwkOf(pair.privateKey)])
  return { publicKey: { x: String(pub.x), y: String(pub.y) }, privateKey: { ...priv, kty: String(priv.kty) } }
}

async function newPair(): Promise<{ publicKey: Key; privateKey: Key }> {
  const pair = await crypto.subtle.generateKey(CURVE, true, ['deriveBits'])
  if (!('privateKey' in pair)) throw new Error('expected a key pair')
  return pair
}

async function jwkOf(key: Key): Promise<PrivateJwk> {
  const exported = await crypto.subtle.exportKey('jwk', key)
  if (exported instanceof ArrayBuffer) throw new Error('expected a JWK')
  return { ...exported, kty: String(exported.kty) }
}

const publicJwk = (key: { x: string; y: string }): PrivateJwk => ({ kty: 'EC', crv: 'P-256', x: key.x, y: key.y, ext: true })

async function aesKey(privateKey: Key, publicKey: Key, context: string): Promise<Key> {
  // The other side's key under the WebCrypto name `public` (a variable, as the Workers types spell it `$public`).
  const ecdh = { name: 'ECDH', public: publicKey }
  const shared = await crypto.subtle.deriveBits(ecdh, privateKey, 256)
  const material = await crypto.subtle.importKey('raw', shared, 'HKDF', false, ['deriveKey'])
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(32), info: encoder.encode(`tablewatch sealed-to-key ${context}`) },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  )
}

export async function sealToKey(receiver: { x: string; y: string }, plaintext: string, context: string): Promise<SealedToKey> {
  const receiverKey = await crypto.subtle.importKey('jwk', publicJwk(receiver), CURVE, false, [])
  const mine = await newPair()
  const key = await aesKey(mine.privateKey, receiverKey, context)
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const data = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: encoder.encode(context) }, key, encoder.encode(plaintext))
  const epk = await jwkOf(mine.publicKey)
  return { epk: { x: String(epk.x), y: String(epk.y) }, iv: toBase64(iv), ciphertext: toBase64(new Uint8Array(data)) }
}

/** Opens a sealed value with the receiver's private key; throws when it was not sealed to it for `context`. */
export async function openSealedToKey(privateKey: PrivateJwk, sealed: SealedToKey, context: string): Promise<string> {
  const [mine, theirs] = await Promise.all([
    crypto.subtle.importKey('jwk', privateKey, CURVE, false, ['deriveBits']),
    crypto.subtle.importKey('jwk', publicJwk(sealed.epk), CURVE, false, []),
  ])
  const key = await aesKey(mine, theirs, context)
  const data = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: fromBase64(sealed.iv), additionalData: encoder.encode(context) },
    key,
    fromBase64(sealed.ciphertext),
  )
  return decoder.decode(data)
}
