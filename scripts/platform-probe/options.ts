// The probe's flags and environment. Credentials never come from the command line (a shell's
// history and `ps` would keep them): only from PROBE_EMAIL / PROBE_PASSWORD or a prompt.

export const REAL_PLATFORM = 'https://api.resy.com'
/** "A few venues": each costs four calls. */
export const MAX_VENUES = 5

/**
 * Where the calls leave from: the operator's machine, Cloudflare's network (through the relay
 * worker, relay.ts, run with `wrangler dev --remote`), or both, compared call by call.
 */
export type Place = 'operator' | 'cloudflare'
export const PLACES = ['operator', 'cloudflare', 'both'] as const

export interface ProbeOptions {
  /** Confirmed on the command line: no question before the real platform is called. */
  yes: boolean
  /** The places, in the order each call is made from them (the first is the run's own). */
  places: Place[]
  /** The relay worker's address, and the token it wants (PROBE_RELAY_TOKEN); null without Cloudflare. */
  relay: { url: string; token: string } | null
  baseUrl: string
  apiKey: string
  userAgent: string | undefined
  venueIds: number[]
  query: string | null
  maxVenues: number
  day: string
  partySize: number
  account: boolean
  /** Where recordings go; default test/platform/fixtures/recorded/<day of the run>. */
  outDir: string | null
  sandbox: { baseUrl: string; apiKey: string | null; venueIds: number[] } | null
}

export const USAGE = `npm run platform:probe -- [flags]

Read-only calls to the REAL reservation platform (default ${REAL_PLATFORM}), recorded (redacted)
and compared with the client's schemas and, with --sandbox, with the sandbox's answers.
Never books or cancels anything. Run it yourself, once; never in CI.

  --base-url URL       the platform (env PLATFORM_BASE_URL; default ${REAL_PLATFORM})
  --api-key KEY        its public API key (env PLATFORM_API_KEY; required)
  --user-agent UA      a browser User-Agent (env PLATFORM_USER_AGENT; default the client's)
  --venue ID           a venue to probe (repeatable); else the first search hits
  --query TEXT         the venue search (default: the first venue's name)
  --max-venues N       venues taken from the search (default 2, at most ${MAX_VENUES})
  --day YYYY-MM-DD     the day for calendar and find (default: a week from today, UTC)
  --party N            the party size (default 2)
  --account            also sign in and read /2/user and the reservations; the email and
                       password come from PROBE_EMAIL / PROBE_PASSWORD or a prompt
  --yes                do not ask before calling the real platform (for scripted use)
  --from PLACE         where the calls leave from: operator (this machine, the default),
                       cloudflare (through the relay worker), or both (each call from both,
                       compared: whether sign-in answers from each place is the question)
  --relay URL          the relay worker, started with
                       'npx wrangler dev --remote -c scripts/platform-probe/relay.wrangler.toml
                        --var PROBE_RELAY_TOKEN:<a long random value>' (env PROBE_RELAY_TOKEN: the same)
  --out DIR            where to write (default test/platform/fixtures/recorded/<today>)
  --sandbox URL        also ask a running sandbox the same calls and compare; start one with
                       'npx wrangler dev -c sandbox/wrangler.toml --port 8788' (npm start does not
                       expose it on a port of its own), then --sandbox http://localhost:8788
  --sandbox-key KEY    its API key (env SANDBOX_API_KEY; default from sandbox/.dev.vars)
  --sandbox-venue ID   the sandbox venue compared with each probed venue, in order (repeatable)
`

export class UsageError extends Error {}

const DAY = /^\d{4}-\d{2}-\d{2}$/
const VALUE_FLAGS = [
  '--from',
  '--relay',
  '--base-url',
  '--api-key',
  '--user-agent',
  '--venue',
  '--query',
  '--max-venues',
  '--day',
  '--party',
  '--out',
  '--sandbox',
  '--sandbox-key',
  '--sandbox-venue',
]
const FORBIDDEN = ['--email', '--password', '--token', '--user', '--login']

function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10)
}

const positive = (flag: string, value: string, max: number) => {
  const n = Number(value)
  if (!/^\d+$/.test(value) || n < 1 || n > max) throw new UsageError(`${flag} must be a whole number from 1 to ${max}, not "${value}"`)
  return n
}

export function parseOptions(argv: string[], env: Record<string, string | undefined>, now = Date.now()): ProbeOptions | 'help' {
  const flags = new Map<string, string[]>()
  const switches = new Set<string>()
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? ''
    if (arg === '--help' || arg === '-h') return 'help'
    const [name = '', inline] = arg.split(/=(.*)/s, 2)
    if (FORBIDDEN.some((f) => name === f))
      throw new UsageError(`${name} is not accepted on the command line: set PROBE_EMAIL / PROBE_PASSWORD or answer the prompt`)
    if (name === '--account' || name === '--yes') {
      switches.add(name)
      continue
    }
    if (!name.startsWith('--')) throw new UsageError(`unexpected argument "${arg}"`)
    if (!VALUE_FLAGS.includes(name)) throw new UsageError(`unknown flag ${name}`)
    const value = inline ?? argv[++i]
    if (value === undefined) throw new UsageError(`${name} needs a value`)
    flags.set(name, [...(flags.get(name) ?? []), value])
  }
  const one = (name: string) => flags.get(name)?.at(-1)
  const ids = (name: string) =>
    (flags.get(name) ?? []).map((v) => {
      if (!/^\d+$/.test(v)) throw new UsageError(`${name} takes a venue id (digits), not "${v}"`)
      return Number(v)
    })

  const baseUrl = one('--base-url') ?? env.PLATFORM_BASE_URL ?? REAL_PLATFORM
  if (!/^https?:\/\/[^/]+/.test(baseUrl)) throw new UsageError(`--base-url must be an http(s) URL, not "${baseUrl}"`)
  const apiKey = one('--api-key') ?? env.PLATFORM_API_KEY
  if (!apiKey) throw new UsageError('the platform API key is missing: --api-key KEY or PLATFORM_API_KEY')
  const day = one('--day') ?? addDays(new Date(now).toISOString().slice(0, 10), 7)
  if (!DAY.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) throw new UsageError(`--day must be YYYY-MM-DD, not "${day}"`)
  const venueIds = ids('--venue')
  if (venueIds.length === 0 && one('--query') === undefined)
    throw new UsageError('name the venues: --venue ID (repeatable) or --query TEXT')
  if (venueIds.length > MAX_VENUES) throw new UsageError(`at most ${MAX_VENUES} venues (--venue) a run`)
  const sandboxUrl = one('--sandbox')
  if (sandboxUrl !== undefined && !/^https?:\/\/[^/]+/.test(sandboxUrl))
    throw new UsageError(`--sandbox must be an http(s) URL, not "${sandboxUrl}"`)
  const from = one('--from') ?? 'operator'
  if (!(PLACES as readonly string[]).includes(from)) throw new UsageError(`--from takes ${PLACES.join(', ')}, not "${from}"`)
  const places: Place[] = from === 'both' ? ['operator', 'cloudflare'] : [from as Place]
  let relay: ProbeOptions['relay'] = null
  if (places.includes('cloudflare')) {
    const url = one('--relay')
    if (!url || !/^https?:\/\/[^/]+/.test(url)) throw new UsageError('--from cloudflare or both needs --relay URL (the relay worker)')
    const token = env.PROBE_RELAY_TOKEN ?? ''
    if (token.length < 24)
      throw new UsageError('the relay needs PROBE_RELAY_TOKEN (24 characters or more), the value given to its wrangler dev')
    relay = { url: url.replace(/\/+$/, ''), token }
  }
  return {
    yes: switches.has('--yes'),
    places,
    relay,
    baseUrl,
    apiKey,
    userAgent: one('--user-agent') ?? env.PLATFORM_USER_AGENT,
    venueIds,
    query: one('--query') ?? null,
    maxVenues: positive('--max-venues', one('--max-venues') ?? '2', MAX_VENUES),
    day,
    partySize: positive('--party', one('--party') ?? '2', 20),
    account: switches.has('--account'),
    outDir: one('--out') ?? null,
    sandbox:
      sandboxUrl === undefined
        ? null
        : { baseUrl: sandboxUrl, apiKey: one('--sandbox-key') ?? env.SANDBOX_API_KEY ?? null, venueIds: ids('--sandbox-venue') },
  }
}

export { addDays }
