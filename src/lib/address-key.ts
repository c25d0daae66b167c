// The key every per-address limit counts under. One IPv6 subscriber usually
// holds a whole /64 (RFC 6177; RFC 7934, section 6 hands each host a /64 of its own), so counting exact
// IPv6 addresses gives one attacker 2^64 fresh budgets. IPv4 addresses count one by one; an
// IPv4-mapped IPv6 address (::ffff:a.b.c.d) is its IPv4 address.

/** The eight 16-bit groups of an IPv6 address, or null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  const halves = address.split('::')
  if (halves.length > 2) return null
  const parse = (part: string) => (part === '' ? [] : part.split(':'))
  const head = parse(halves[0] ?? '')
  const tail = halves.length === 2 ? parse(halves[1] ?? '') : []
  // A trailing dotted IPv4 part fills the last two groups.
  const last = tail.length > 0 ? tail : head
  const dotted = last.at(-1)
  if (dotted?.includes('.')) {
    const v4 = ipv4Octets(dotted)
    if (!v4) return null
    last.splice(-1, 1, ((v4[0] << 8) | v4[1]).toString(16), ((v4[2] << 8) | v4[3]).toString(16))
  }
  const missing = 8 - head.length - tail.length
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail]
  if (!groups.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return null
  return groups.map((g) => Number.parseInt(g, 16))
}

function ipv4Octets(address: string): [number, number, number, number] | null {
  const parts = address.split('.')
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null
  return parts.map(Number) as [number, number, number, number]
}

/** `address` (CF-Connecting-IP) as a rate-limit key: an IPv6 address becomes its /64. */
/** The key of a request that came without an address. */
const UNKNOWN_ADDRESS = 'unknown'

/**
 * True for a key that only a local run produces: no address, or this machine's own (127.0.0.0/8,
 * and ::1, whose /64 is ::/64). Cloudflare sets CF-Connecting-IP to the client's public address on
 * every request that reaches a deployment; `wrangler dev` sets it to the loopback peer.
 */
export function isLocalAddressKey(key: string): boolean {
  return key === UNKNOWN_ADDRESS || key.startsWith('127.') || key === '0:0:0:0::/64'
}

export function addressKey(address: string | null | undefined): string {
  const raw = (address ?? '').trim()
  if (raw === '') return UNKNOWN_ADDRESS
  if (ipv4Octets(raw)) return raw
  const groups = ipv6Groups(raw.replace(/%.*$/, ''))
  if (!groups) return raw.slice(0, 64)
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff
  if (mapped) return [groups[6] ?? 0, groups[7] ?? 0].flatMap((g) => [g >> 8, g & 0xff]).join('.')
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`
}
