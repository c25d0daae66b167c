// HMAC keys derived from one Worker secret, each with its own label (HKDF-SHA-256), so a feature
// that needs to sign something gets a key of its own without a new secret to deploy, and a
// token made for one purpose (an unsubscribe link, a calendar feed) is useless for any other.

const cache = new Map<string, Promise<CryptoKey>>()

/** The HMAC-SHA-256 key for `label` derived from the base64 `secret`; derived once per isolate. */
export function derivedHmacKey(secret: string, label: string): Promise<CryptoKey> {
  const id = `${label}\u0000${secret}`
  let key = cache.get(id)
  if (!key) {
    key = crypto.subtle
      .importKey(
        'raw',
        Uint8Array.from(atob(secret), (c) => c.charCodeAt(0)),
        'HKDF',
        false,
        ['deriveKey'],
      )
      .then((base) =>
        crypto.subtle.deriveKey(
          { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: new TextEncoder().encode(label) },
          base,
          { name: 'HMAC', hash: 'SHA-256', length: 256 },
          false,
          ['sign', 'verify'],
        ),
      )
    cache.set(id, key)
  }
  return key
}
