// Random identifiers and secrets from WebCrypto.

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** Base62 of `byteCount` random bytes, fixed width so every value has the same length. */
export function randomBase62(byteCount: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(byteCount))
  let n = 0n
  for (const b of bytes) n = (n << 8n) | BigInt(b)
  const width = Math.ceil((byteCount * 8) / Math.log2(62))
  let out = ''
  for (let i = 0; i < width; i++) {
    out = BASE62[Number(n % 62n)] + out
    n /= 62n
  }
  return out
}

/** A short random id with a readable prefix, e.g. `sr_3kq9x0abcdE`. */
export function newId(prefix: string, byteCount = 12): string {
  return `${prefix}_${randomBase62(byteCount)}`
}

export async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(value))
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}
