// A small loopback HTTP server that answers as shared/reference/resy-api.md, "Corrections (third review)" describes the
// real platform behind its CDN: `X-CDN: Imperva`, `X-Iinfo` and the incap cookies on every answer
// (successful ones included, [idx 52679252770], [idx 69602287299]); a plain-text 500
// `Internal Server Error` for a client without a browser User-Agent ([idx 52679252770]); an empty
// day answered `results.venues: []` (`mvanhorn/printing-press-library`); a reservations list paged
// by limit/offset with a cancelled legacy entry whose `time_slot` is an object (same source); and a
// refresh cookie with `+`, `/` and `=` in it (resy-api.md, "Corrections (third review)", `Cierge:resy/auth.go`). It never books: any
// other path is a 404, and every request is kept so a test can see what the probe asked.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export const SERVER_API_KEY = 'local-platform-key-0123456789abcdef'
/** The account's values: a recording must contain none of them. */
export const ACCOUNT = {
  email: 'marguerite.okonkwo@example.net',
  password: 'correct horse battery staple',
  firstName: 'Marguerite',
  lastName: 'Okonkwo',
  phone: '+1 (212) 555-0187',
  token: 'eyJhbGciOiJFUzI1NiJ9.eyJleHAiOjE5MDAwMDAwMDAsInVpZCI6OTkxMn0.c2lnbmF0dXJlLXZhbHVl',
  refreshToken: 'rT+9x/QaZ==',
  userId: 99120451,
  cardId: 55501234,
  cardLast4: '4817',
  resyToken: 'resytoken-7Hq2Lk9',
}
export const EMPTY_DAY = '2026-12-04'
export const VENUES = [
  { id: 1505, name: 'Lilia', locality: 'New York', neighborhood: 'Williamsburg' },
  { id: 5769, name: 'Via Carota', locality: 'New York', neighborhood: 'West Village' },
]
export const UPCOMING_TOTAL = 23

export interface Received {
  method: string
  path: string
  query: URLSearchParams
  headers: IncomingMessage['headers']
}

export interface PlatformLikeServer {
  url: string
  received: Received[]
  close: () => Promise<void>
}

const BROWSER = /^Mozilla\/5\.0 \([^)]+\) AppleWebKit\/[\d.]+ \(KHTML, like Gecko\) Chrome\/[\d.]+ Safari\/[\d.]+$/

/** `blockEveryone`: Imperva refuses every client (the plain-text 500), as for a blocked IP. */
export async function startPlatformLikeServer(options: { blockEveryone?: boolean } = {}): Promise<PlatformLikeServer> {
  const received: Received[] = []
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    received.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers })
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => send(res, answer(req, url, body, options)))
  })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  }
}

/** What Imperva adds to every answer, the API's included. */
function cdnHeaders(res: ServerResponse, extraCookies: string[] = []): void {
  res.setHeader('X-CDN', 'Imperva')
  res.setHeader('X-Iinfo', '9-12345678-12345679 NNNN CT(0 0 0) RT(1764201600000 12) q(0 0 0 -1) r(1 1) U6')
  res.setHeader('Set-Cookie', [
    'visid_incap_2100000=Qm9yZWFsLXZpc2l0b3ItaWQ; expires=Fri, 26 Nov 2027 10:00:00 GMT; HttpOnly; path=/; Domain=.resy.com; Secure; SameSite=None',
    'incap_ses_1234_2100000=c2Vzc2lvbi12YWx1ZQ==; path=/; Domain=.resy.com; Secure; SameSite=None',
    'nlbi_2100000=bmxiaS12YWx1ZQ==; HttpOnly; path=/; Domain=.resy.com; Secure; SameSite=None',
    ...extraCookies,
  ])
}

/** An answer: the API's JSON, or (for a blocked client) Imperva's plain text. */
interface Reply {
  status: number
  json?: unknown
  text?: string
  cookies?: string[]
}

const json = (status: number, value: unknown, cookies: string[] = []): Reply => ({ status, json: value, cookies })

function send(res: ServerResponse, reply: Reply): void {
  cdnHeaders(res, reply.cookies)
  if (reply.json === undefined && reply.text === undefined) {
    res.writeHead(reply.status)
    res.end()
    return
  }
  if (reply.text !== undefined) {
    res.writeHead(reply.status, { 'Content-Type': 'text/plain' })
    res.end(reply.text)
    return
  }
  res.writeHead(reply.status, { 'Content-Type': 'application/json' })
  res.end(JSON.stringify(reply.json))
}

function answer(req: IncomingMessage, url: URL, body: string, options: { blockEveryone?: boolean }): Reply {
  if (options.blockEveryone || !BROWSER.test(req.headers['user-agent'] ?? '')) return { status: 500, text: 'Internal Server Error' }
  // A CORS preflight, as measured from a home address ([idx 60497690475]: 204).
  if (req.method === 'OPTIONS') return { status: 204 }
  if (req.headers.authorization !== `ResyAPI api_key="${SERVER_API_KEY}"`) return json(419, { status: 419, message: 'Unauthorized' })
  const token = req.headers['x-resy-auth-token']
  const signedIn = token === ACCOUNT.token && req.headers['x-resy-universal-auth'] === ACCOUNT.token
  const route = `${req.method} ${url.pathname}`
  const q = url.searchParams
  switch (route) {
    case 'GET /3/geoip':
      return json(200, { latitude: 40.7128, longitude: -74.006, city: 'New York', region: 'NY', country: 'US', in_eu: false })
    case 'POST /3/venuesearch/search':
      return json(200, {
        search: {
          hits: VENUES.map((v) => ({
            id: { resy: v.id },
            objectID: String(v.id),
            name: v.name,
            locality: v.locality,
            region: 'NY',
            neighborhood: v.neighborhood,
          })),
          nbHits: VENUES.length,
          page: 0,
        },
      })
    case 'GET /3/venue': {
      const v = VENUES.find((x) => String(x.id) === q.get('id'))
      if (!v) return json(200, { data: { id: 'missing' } })
      return json(200, {
        id: { resy: v.id, google: null },
        name: v.name,
        url_slug: v.name.toLowerCase().replace(/\s+/g, '-'),
        location: {
          address_1: '567 Union Ave',
          locality: v.locality,
          region: 'NY',
          neighborhood: v.neighborhood,
          time_zone: 'EST5EDT',
          url_slug: 'ny',
        },
        contact: { phone_number: '+1 (718) 555-0142', url: 'https://example.com' },
        lead_time_in_days: 30,
      })
    }
    case 'GET /2/config':
      return json(200, { lead_time_in_days: 30, venue: { name: 'x', min_party_size: 1, max_party_size: 6 }, service_types: { 2: {} } })
    case 'GET /4/venue/calendar':
      return json(200, {
        last_calendar_day: '2026-12-27',
        scheduled: [{ date: q.get('start_date'), inventory: { reservation: 'sold-out', event: 'not available', 'walk-in': 'available' } }],
      })
    case 'GET /4/find':
      // An empty day: no venue entry at all (resy-api.md, "Corrections (third review)").
      if (q.get('day') === EMPTY_DAY) return json(200, { query: { day: EMPTY_DAY, party_size: 2 }, results: { venues: [] } })
      return json(200, { results: { venues: [] } })
    // 2026: /4 signs in; this platform has /3 no more ([idx 57928723907]: "no longer exists").
    case 'POST /4/auth/mobile':
      return json(400, { status: 400, message: 'Invalid mobile number', data: { mobile_number: 'required' } })
    case 'POST /4/auth/password': {
      const form = new URLSearchParams(body)
      if (form.get('email') !== ACCOUNT.email || form.get('password') !== ACCOUNT.password)
        return json(419, { status: 419, message: 'Unauthorized' })
      return json(200, profile(true), [`production_refresh_token=${ACCOUNT.refreshToken}; Path=/; HttpOnly; Secure; SameSite=None`])
    }
    case 'GET /2/user':
      return signedIn ? json(200, profile(false)) : json(419, { status: 419, message: 'Unauthorized' })
    case 'GET /3/user/reservations':
      return signedIn ? json(200, reservations(q)) : json(419, { status: 419, message: 'Unauthorized' })
    default:
      return json(404, { status: 404, message: 'Not Found' })
  }
}

function profile(withToken: boolean) {
  return {
    id: ACCOUNT.userId,
    first_name: ACCOUNT.firstName,
    last_name: ACCOUNT.lastName,
    em_address: ACCOUNT.email,
    mobile_number: ACCOUNT.phone,
    ...(withToken ? { token: ACCOUNT.token } : {}),
    payment_method_id: ACCOUNT.cardId,
    payment_methods: [
      { id: ACCOUNT.cardId, is_default: true, provider_name: 'stripe', display: ACCOUNT.cardLast4, exp_month: 7, exp_year: 2029 },
    ],
    num_bookings: UPCOMING_TOTAL,
  }
}

/** 23 upcoming entries paged by limit/offset; the fourth is cancelled and legacy (an object time_slot). */
function reservations(q: URLSearchParams) {
  const type = q.get('type') ?? 'upcoming'
  const total = type === 'upcoming' ? UPCOMING_TOTAL : 0
  const offset = Number(q.get('offset') ?? 0)
  const limit = Number(q.get('limit') ?? 10)
  const all = Array.from({ length: total }, (_, i) => {
    const day = `2026-12-${String(5 + (i % 20)).padStart(2, '0')}`
    const legacy = i === 3
    return {
      reservation_id: 800_100 + i,
      resy_token: `${ACCOUNT.resyToken}-${i}`,
      venue: { id: VENUES[i % 2]?.id },
      day,
      time_slot: legacy ? { start: '19:00:00', end: '21:00:00' } : '19:00:00',
      num_seats: 2,
      config: { type: 'Dining Room' },
      status: legacy ? { finished: 0, no_show: 0, cancelled: 1 } : { finished: 0, no_show: 0 },
      cancellation: { allowed: !legacy },
      payment_method: { id: ACCOUNT.cardId, display: ACCOUNT.cardLast4 },
      special_request: `Call ${ACCOUNT.firstName} on ${ACCOUNT.phone}`,
    }
  })
  return {
    reservations: all.slice(offset, offset + limit),
    venues: { 1505: { name: 'Lilia' }, 5769: { name: 'Via Carota' } },
    metadata: { total, type },
  }
}
