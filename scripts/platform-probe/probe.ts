// One probe run: the read-only calls in order, each recorded (redacted) and compared with the
// client's schemas and, when a sandbox is given, with the sandbox's answer to the same call; then
// whether sign-in answers, asked without credentials. From the operator's machine, from
// Cloudflare's network (the relay worker), or from both, compared call by call (docs/platform.md,
// "Where calls may come from"). The calls go through the client's own transport
// (src/platform/http.ts), so they carry exactly the headers the service sends, behind an
// allow-list (allowed-calls.ts) and a pace of one a second per place.
import { type CallSpec, createTransport } from '../../src/platform/http'
import { allowListed, paced } from './allowed-calls'
import { type Captured, type CapturingFetcher, capturing, jsonOf } from './capture'
import { addDays, type Place, type ProbeOptions } from './options'
import { type Recording, recordingOf } from './recording'
import { relayNetwork } from './relay-network'
import { type CallName, schemaIssues, schemaNameOf } from './schema-check'
import { differencesFromSandbox } from './shape-diff'
import { type Verdict, verdictOf } from './verdict'

export interface Credentials {
  email: string
  password: string
}

export interface ProbeIo {
  /** The network: globalThis.fetch in the command, a recording wrapper in tests. */
  network: (request: Request) => Promise<Response>
  /** Asked only with --account, and only for the platform (the sandbox gets a made-up account). */
  credentials: () => Promise<Credentials>
  /** One line of the report. */
  print: (line: string) => void
  /** At least this long between two platform calls (the command: 1000). */
  intervalMs: number
}

export interface Difference {
  /** The recording's name, e.g. 06-find-1505. */
  call: string
  /** place: the answer from Cloudflare's network differs from the operator's. */
  against: 'schema' | 'client' | 'sandbox' | 'place'
  path: string
  detail: string
}

/** Whether a sign-in endpoint answered a call without credentials, from each place. */
export interface SignInCheck {
  call: string
  from: Partial<Record<Place, string>>
}

export interface ProbeResult {
  recordings: Recording[]
  differences: Difference[]
  /** Why the run ended early (a block, a rate limit, a refused key), or null. */
  stoppedBecause: string | null
  notes: string[]
  signIn: SignInCheck[]
}

const TIMEOUT_MS = 15_000
const RESERVATION_PAGE = 20
const MAX_PAGES = 5
const CALENDAR_DAYS = 14
/** The sandbox accepts any account (sandbox/src/store/accounts.ts); the operator's is never sent there. */
const SANDBOX_ACCOUNT: Credentials = { email: 'probe.sandbox@example.com', password: 'sandbox-only' }

class Stop extends Error {}

interface Planned {
  name: CallName
  /** Added to the name in the file: the venue id, the page. */
  label?: string
  spec: CallSpec
  /** The same call to the sandbox; null when there is none to compare. */
  sandboxSpec?: CallSpec | null
  /** A sign-in check: a block is its finding, not a reason to stop. */
  check?: boolean
}

/** One place the calls leave from: its transport and what its wire captured. */
interface PlaceWire {
  place: Place
  wire: CapturingFetcher
  transport: ReturnType<typeof createTransport>
  /** False once a read met a block there: asking again keeps a block in place. */
  active: boolean
}

/** What an answer means for "does sign-in answer from here". */
function signInAnswerOf(status: number, verdict: Verdict): string {
  if (verdict.kind === 'block') return `refused: ${verdict.why}`
  if (verdict.kind === 'rate_limited') return 'refused: HTTP 429'
  return status < 500 ? `answers (HTTP ${status})` : `no clear answer (HTTP ${status})`
}

export async function runProbe(options: ProbeOptions, io: ProbeIo): Promise<ProbeResult> {
  const places: PlaceWire[] = options.places.map((place) => {
    const network = place === 'cloudflare' && options.relay ? relayNetwork(options.relay, io.network) : io.network
    const wire = capturing(network)
    const transport = createTransport({
      fetcher: allowListed(paced(wire, io.intervalMs)),
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      timeoutMs: TIMEOUT_MS,
      retryDelaysMs: [],
      userAgent: options.userAgent,
    })
    return { place, wire, transport, active: true }
  })
  const [lead, ...others] = places
  if (!lead) throw new Error('the probe needs a place to call from')
  const first: PlaceWire = lead
  const platformWire = first.wire
  const platform = first.transport
  const sandboxWire = capturing(io.network)
  const sandbox = options.sandbox?.apiKey
    ? createTransport({
        fetcher: allowListed(sandboxWire),
        baseUrl: options.sandbox.baseUrl,
        apiKey: options.sandbox.apiKey,
        timeoutMs: TIMEOUT_MS,
        retryDelaysMs: [],
        userAgent: options.userAgent,
      })
    : null
  const result: ProbeResult = { recordings: [], differences: [], stoppedBecause: null, notes: [], signIn: [] }
  if (options.sandbox && !sandbox)
    result.notes.push('no sandbox API key (--sandbox-key, SANDBOX_API_KEY or sandbox/.dev.vars): not compared')

  /** Makes one call (and its sandbox twin), records it; the platform's JSON body and the twin's. */
  async function call(planned: Planned): Promise<{ json: unknown; twinJson: unknown }> {
    const sequence = String(result.recordings.length + 1).padStart(2, '0')
    const file = [sequence, planned.name, planned.label].filter(Boolean).join('-')
    const got = await platform.exchange(planned.spec)
    const captured = platformWire.log.at(-1)
    // A refused call (allowed-calls.ts) surfaces here as a network failure carrying its message.
    if (got.kind === 'network') throw new Stop(`${file}: ${got.detail}`)
    if (got.kind !== 'answer' || !captured) throw new Stop(`${file}: no answer (${got.kind === 'answer' ? 'not captured' : got.kind})`)
    const json = jsonOf(captured.response.text)
    const verdict = verdictOf(captured.response.status, captured.response.headers, captured.response.text, json)
    const differences: Difference[] = []
    const status = captured.response.status
    if (verdict.kind === 'api' && status >= 200 && status < 300)
      for (const issue of schemaIssues(planned.name, json)) differences.push({ call: file, against: 'schema', ...issue })
    if (got.block && verdict.kind === 'api')
      differences.push({
        call: file,
        against: 'client',
        path: '(block reading)',
        detail: `the client reads this answer as a block (${got.block}) although its body is the API's JSON`,
      })
    if (!got.block && verdict.kind === 'block')
      differences.push({
        call: file,
        against: 'client',
        path: '(block reading)',
        detail: `the client does not see ${verdict.why} as a block`,
      })
    const twin = sandbox && planned.sandboxSpec !== null ? await sandboxAnswer(planned.sandboxSpec ?? planned.spec) : null
    const twinJson = twin ? jsonOf(twin.response.text) : undefined
    if (twin)
      for (const d of differencesFromSandbox(
        { status, headers: captured.response.headers, json },
        { status: twin.response.status, headers: twin.response.headers, json: twinJson },
      ))
        differences.push({ call: file, against: 'sandbox', ...d })
    const recording = recordingOf(file, planned.name, captured, json, {
      schema: schemaNameOf(planned.name),
      verdict,
      clientReadsBlock: got.block,
      differences,
      sandbox: twin ? { status: twin.response.status } : null,
    })
    result.recordings.push(recording)
    result.differences.push(...differences)
    printCall(io, captured, differences, first.place)
    const check: SignInCheck = { call: `${captured.request.method} ${captured.request.url.pathname}`, from: {} }
    check.from[first.place] = signInAnswerOf(status, verdict)
    for (const other of others) await fromElsewhere(other, planned, file, { status, verdict }, check)
    if (planned.check) result.signIn.push(check)
    if (planned.check) return { json, twinJson }
    if (verdict.kind === 'block') throw new Stop(`${file}: ${verdict.why}; stopped so as not to keep the block in place`)
    if (verdict.kind === 'rate_limited') throw new Stop(`${file}: HTTP 429; stopped (the platform asked to slow down)`)
    if ((status === 401 || status === 419) && !planned.spec.signsIn && planned.spec.authToken === undefined)
      throw new Stop(`${file}: HTTP ${status} on a key-only call: the API key was refused`)
    return { json, twinJson }
  }

  /**
   * The same call from another place: recorded on its own (…-from-cloudflare), compared with the
   * first place's answer. A block there on a read ends that place's part of the run.
   */
  async function fromElsewhere(
    other: PlaceWire,
    planned: Planned,
    file: string,
    here: { status: number; verdict: Verdict },
    check: SignInCheck,
  ): Promise<void> {
    if (!other.active) return
    const got = await other.transport.exchange(planned.spec)
    const captured = other.wire.log.at(-1)
    const name = `${file}-from-${other.place}`
    if (got.kind !== 'answer' || !captured) {
      result.notes.push(
        `${name}: no answer from ${other.place} (${got.kind === 'network' ? got.detail : got.kind}); no more calls from there`,
      )
      other.active = false
      return
    }
    const json = jsonOf(captured.response.text)
    const verdict = verdictOf(captured.response.status, captured.response.headers, captured.response.text, json)
    const status = captured.response.status
    const differences: Difference[] = []
    if (verdict.kind !== here.verdict.kind || status !== here.status)
      differences.push({
        call: file,
        against: 'place',
        path: '(answer)',
        detail: `${first.place}: HTTP ${here.status} (${describe(here.verdict)}); ${other.place}: HTTP ${status} (${describe(verdict)})`,
      })
    if (verdict.kind === 'api' && status >= 200 && status < 300)
      for (const issue of schemaIssues(planned.name, json)) differences.push({ call: name, against: 'schema', ...issue })
    result.recordings.push(
      recordingOf(name, planned.name, captured, json, {
        schema: schemaNameOf(planned.name),
        verdict,
        clientReadsBlock: got.block,
        differences,
        sandbox: null,
      }),
    )
    result.differences.push(...differences)
    printCall(io, captured, differences, other.place)
    check.from[other.place] = signInAnswerOf(status, verdict)
    if (!planned.check && (verdict.kind === 'block' || verdict.kind === 'rate_limited')) {
      result.notes.push(`${name}: ${other.place} was refused (${describe(verdict)}); no more calls from there`)
      other.active = false
    }
  }

  async function sandboxAnswer(spec: CallSpec): Promise<Captured | null> {
    if (!sandbox) return null
    const got = await sandbox.exchange(spec)
    return got.kind === 'answer' ? (sandboxWire.log.at(-1) ?? null) : null
  }

  // Asked before the first call, so the operator is not prompted halfway through a paced run.
  const credentials = options.account ? await io.credentials() : null
  try {
    await call({ name: 'geoip', spec: { method: 'GET', path: '/3/geoip' } })
    const search = (query: string) => ({
      name: 'search' as const,
      spec: { method: 'POST' as const, path: '/3/venuesearch/search', json: { query, per_page: 8, types: ['venue'] } },
    })
    let venueIds = options.venueIds
    let sandboxVenueIds = options.sandbox?.venueIds ?? []
    if (options.query !== null) {
      const hits = await call(search(options.query))
      if (venueIds.length === 0) venueIds = hitIds(hits.json).slice(0, options.maxVenues)
      if (sandboxVenueIds.length === 0) sandboxVenueIds = hitIds(hits.twinJson)
    }
    if (venueIds.length === 0) result.notes.push('no venue to probe: give --venue ID, or a --query that finds some')
    if (sandbox && venueIds.length > 0 && sandboxVenueIds.length === 0)
      result.notes.push('no sandbox venue to compare the venue calls with (--sandbox-venue ID)')
    let firstVenueName: string | null = null
    for (const [i, venueId] of venueIds.entries()) {
      const twinId = sandboxVenueIds[i]
      const venueCalls = venuePlan(venueId, options)
      for (const planned of venueCalls) {
        const twin = twinId === undefined ? null : venuePlan(twinId, options).find((p) => p.name === planned.name)?.spec
        const answered = await call({ ...planned, sandboxSpec: twin ?? null })
        if (planned.name === 'venue' && firstVenueName === null) firstVenueName = nameOf(answered.json)
      }
    }
    if (options.query === null && firstVenueName !== null) await call(search(firstVenueName))
    for (const planned of signInChecks()) await call(planned)
    if (credentials) await probeAccount(credentials)
  } catch (err) {
    if (!(err instanceof Stop)) throw err
    result.stoppedBecause = err.message
  }
  return result

  async function probeAccount(credentials: Credentials): Promise<void> {
    // As the client signs in: /4, and /3 only when /4 answers 404 (docs/platform.md, "Sign-in").
    const login = (c: Credentials, path = '/4/auth/password'): CallSpec => ({ method: 'POST', path, form: { ...c }, signsIn: true })
    let signedIn = await call({ name: 'login', spec: login(credentials), sandboxSpec: login(SANDBOX_ACCOUNT) })
    if (platformWire.log.at(-1)?.response.status === 404)
      signedIn = await call({
        name: 'login',
        label: 'v3',
        spec: login(credentials, '/3/auth/password'),
        sandboxSpec: login(SANDBOX_ACCOUNT, '/3/auth/password'),
      })
    const sandboxToken = tokenIn(signedIn.twinJson)
    const token = tokenIn(signedIn.json)
    if (!token) {
      result.notes.push('the platform did not sign in (see the login recording): no account calls')
      return
    }
    const asSandbox = (spec: CallSpec): CallSpec | null => (sandboxToken ? { ...spec, authToken: sandboxToken } : null)
    const user: CallSpec = { method: 'GET', path: '/2/user', authToken: token }
    await call({ name: 'user', spec: user, sandboxSpec: asSandbox(user) })
    for (const type of ['upcoming', 'past']) {
      let previousFirst: unknown
      for (let page = 0; page < MAX_PAGES; page++) {
        const query = { type, limit: String(RESERVATION_PAGE), offset: String(page * RESERVATION_PAGE), book_on_behalf_of: 'false' }
        const spec: CallSpec = { method: 'GET', path: '/3/user/reservations', query, authToken: token }
        const answered = await call({
          name: 'reservations',
          label: `${type}-${page + 1}`,
          spec,
          sandboxSpec: page === 0 ? asSandbox(spec) : null,
        })
        const list = reservationsIn(answered.json)
        if (list.length > 0 && page > 0 && JSON.stringify(list[0]) === JSON.stringify(previousFirst)) {
          result.notes.push(`${type} reservations: page ${page + 1} repeats page ${page}: the platform seems to ignore offset`)
          break
        }
        previousFirst = list[0]
        if (list.length < RESERVATION_PAGE) break
        if (page === MAX_PAGES - 1) result.notes.push(`${type} reservations: stopped after ${MAX_PAGES} pages`)
      }
    }
  }
}

/**
 * Whether sign-in answers from here, asked without credentials: the CORS preflights a browser
 * sends before signing in (what [idx 60497690475] compared between a datacenter and a home: 500
 * against 204), and a sign-in post with nothing in it, which cannot sign anyone in and texts
 * nobody. The sandbox is not asked: these are about the place, not the shape.
 */
function signInChecks(): Planned[] {
  const preflight = (path: string): Planned => ({
    name: 'sign-in-check',
    label: `preflight${path.replaceAll('/', '-')}`,
    spec: {
      method: 'OPTIONS',
      path,
      headers: { 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' },
    },
    sandboxSpec: null,
    check: true,
  })
  const empty = (path: string): Planned => ({
    name: 'sign-in-check',
    label: `empty${path.replaceAll('/', '-')}`,
    spec: { method: 'POST', path, form: {}, signsIn: true },
    sandboxSpec: null,
    check: true,
  })
  return [
    preflight('/4/auth/mobile'),
    preflight('/4/auth/password'),
    preflight('/3/auth/refresh'),
    empty('/4/auth/mobile'),
    empty('/4/auth/password'),
  ]
}

const describe = (verdict: Verdict) =>
  verdict.kind === 'api' ? "the API's answer" : verdict.kind === 'rate_limited' ? 'rate limited' : verdict.why

function venuePlan(venueId: number, options: ProbeOptions): Planned[] {
  const id = String(venueId)
  const party = String(options.partySize)
  return [
    { name: 'venue', label: id, spec: { method: 'GET', path: '/3/venue', query: { id } } },
    { name: 'config', label: id, spec: { method: 'GET', path: '/2/config', query: { venue_id: id } } },
    {
      name: 'calendar',
      label: id,
      spec: {
        method: 'GET',
        path: '/4/venue/calendar',
        query: { venue_id: id, num_seats: party, start_date: options.day, end_date: addDays(options.day, CALENDAR_DAYS - 1) },
        // The calendar needs it (`Cierge:resy/venue.go`; docs/platform.md, "Calendar and release").
        headers: { 'Accept-Encoding': 'gzip, deflate' },
      },
    },
    // The client's own find call (src/platform/client.ts): lat/long are required but unused.
    {
      name: 'find',
      label: id,
      spec: { method: 'GET', path: '/4/find', query: { venue_id: id, day: options.day, party_size: party, lat: '0', long: '0' } },
    },
  ]
}

const record = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null

/** Venue ids of a search answer's hits (`id.resy`, else `objectID`), read leniently. */
function hitIds(body: unknown): number[] {
  const hits = record(record(body)?.search)?.hits
  if (!Array.isArray(hits)) return []
  return hits.flatMap((hit) => {
    const raw = record(record(hit)?.id)?.resy ?? record(hit)?.objectID
    const n = Number(raw)
    return Number.isInteger(n) && n > 0 ? [n] : []
  })
}

const nameOf = (body: unknown) => {
  const name = record(body)?.name
  return typeof name === 'string' && name.trim() !== '' ? name : null
}

const tokenIn = (body: unknown) => {
  const token = record(body)?.token
  return typeof token === 'string' && token !== '' ? token : null
}

const reservationsIn = (body: unknown): unknown[] => {
  const list = record(body)?.reservations
  return Array.isArray(list) ? list : []
}

function printCall(io: ProbeIo, captured: Captured, differences: Difference[], place: Place): void {
  const { request, response } = captured
  const type = (response.headers.get('content-type') ?? 'no content type').split(';')[0]
  const from = place === 'operator' ? '' : ` (from ${place})`
  io.print(
    `${request.method} ${request.url.pathname}${request.url.search}${from} → ${response.status} ${type}, ${response.text.length} bytes`,
  )
  for (const d of differences) io.print(`    ${d.against.padEnd(7)} ${d.path}: ${d.detail}`)
}
