// Whether a host name is on the public internet, for every URL the service fetches because
// someone else named it (webhooks, OAuth client metadata documents): the URL must not be a way
// to reach what only the service can reach (SSRF).
// - no loopback, private, shared (CGNAT), link-local, documentation, benchmarking, multicast or
//   reserved address, in any notation (the URL parser turns 2130706433, 0x7f.1 and 017.0.0.1
//   into 127.0.0.1, and IPv6 into its short form, before the check);
// - no name that can only be local (localhost, *.localhost, *.local, *.internal, *.home.arpa,
//   or a single label).
// Names that resolve to private addresses cannot be checked without DNS; Workers' fetch does not
// reach private networks in production.

/** IPv4 ranges no fetch may reach, as [first octets, prefix length]. */
const BLOCKED_V4: [number[], number][] = [
  [[0], 8],
  [[10], 8],
  [[100, 64], 10],
  [[127], 8],
  [[169, 254], 16],
  [[172, 16], 12],
  [[192, 0, 0], 24],
  [[192, 0, 2], 24],
  [[192, 88, 99], 24],
  [[192, 168], 16],
  [[198, 18], 15],
  [[198, 51, 100], 24],
  [[203, 0, 113], 24],
  [[224], 4],
  [[240], 4],
]

const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa', '.lan', '.intranet']

function ipv4(host: string): number[] | null {
  const parts = host.split('.')
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return null
  const octets = parts.map(Number)
  return octets.every((o) => o <= 255) ? octets : null
}

function inRange(octets: number[], [start, bits]: [number[], number]): boolean {
  const value = octets.reduce((acc, o) => acc * 256 + o, 0)
  const base = [...start, 0, 0, 0, 0].slice(0, 4).reduce((acc, o) => acc * 256 + o, 0)
  const size = 2 ** (32 - bits)
  return value >= base && value < base + size
}

/** The eight 16-bit groups of a bracketed IPv6 host as the URL parser writes it, or null. */
function ipv6(host: string): number[] | null {
  if (!host.startsWith('[') || !host.endsWith(']')) return null
  const text = host.slice(1, -1)
  const [head = '', tail] = text.split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const missing = 8 - left.length - right.length
  if (tail === undefined ? left.length !== 8 : missing < 1) return null
  const groups = [...left, ...Array(tail === undefined ? 0 : missing).fill('0'), ...right]
  return groups.every((g) => /^[0-9a-f]{1,4}$/.test(g)) ? groups.map((g) => Number.parseInt(g, 16)) : null
}

/** Only global unicast (2000::/3), minus documentation (2001:db8::/32), Teredo and 6to4. */
function ipv6Allowed(groups: number[]): boolean {
  const [first = 0, second = 0] = groups
  if (first < 0x2000 || first > 0x3fff) return false
  if (first === 0x2001 && (second === 0x0db8 || second === 0)) return false
  return first !== 0x2002
}

export function isLoopbackHost(host: string): boolean {
  const v4 = ipv4(host)
  return host === 'localhost' || host === '[::1]' || (v4 !== null && v4[0] === 127)
}

/**
 * Why this host (a URL's `hostname`, root dot removed) is not a public one, in words for a page,
 * or null when it is.
 */
export function publicHostProblem(host: string): string | null {
  const v4 = ipv4(host)
  if (v4) return BLOCKED_V4.some((range) => inRange(v4, range)) ? 'That address is not on the public internet' : null
  const v6 = ipv6(host)
  if (v6) return ipv6Allowed(v6) ? null : 'That address is not on the public internet'
  if (host.startsWith('[')) return 'That address is not on the public internet'
  if (!host.includes('.') || host === 'localhost' || LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) {
    return 'Use a public host name, not a local one'
  }
  return null
}
