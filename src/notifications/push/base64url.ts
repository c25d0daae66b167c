// base64url (RFC 4648, section 5, no padding), the encoding of Web Push keys (RFC 8291, section 3.2, RFC 8292, section 3.2).

export function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text)) return null
  const base64 = text.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/')
  try {
    return Uint8Array.from(atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4)), (c) => c.charCodeAt(0))
  } catch {
    return null
  }
}

export function toBase64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}
