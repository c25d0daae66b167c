// The platform's own endpoints, same paths and wire format as api.resy.com.
import { Hono } from 'hono'
import { z } from 'zod'
import { carriesCdnCookies } from '../cdn'
import type { SandboxEnv } from '../env'
import { blockedAnswer, cookieChallenge, looksLikeABrowser, looksLikeTheWebApp, plainText500, preflight } from '../firewall'
import { callOriginOf } from '../network'
import { searchVenues, venueById } from '../venues'
import {
  bookJson,
  calendarJson,
  configJson,
  configOfToken,
  detailsJson,
  findJson,
  reservationsJson,
  searchJson,
  userJson,
  venueJson,
} from '../wire'
import { type Ctx, digits, endpoint, jsonBody, jsonOf, message, unauthorized, userToken, type World, worldOf } from './common'
import { signInRoutes } from './sign-in'

/** How far a lagging reservation list (fault `stale`) is behind. */
const STALE_LAG_MS = 60_000

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/)
const findQuery = z.object({ venue_id: digits, day, party_size: digits })
const detailsBody = z.object({ config_id: z.string(), day, party_size: digits })
const bookForm = z.object({ book_token: z.string().min(1), struct_payment_method: z.string().optional() })
const paymentMethod = z.object({ id: digits })
/**
 * `limit`/`offset` page the reservation list (docs/platform.md, "Reservations"). The sandbox answers at most
 * RESERVATIONS_PAGE_MAX a page whatever the limit asked, so a client must read on (by
 * `metadata.total`) rather than assume one call holds the whole list.
 */
const RESERVATIONS_PAGE_MAX = 10
const pageQuery = z.object({
  offset: digits.default(0),
  limit: digits.default(RESERVATIONS_PAGE_MAX).transform((n) => Math.min(Math.max(n, 1), RESERVATIONS_PAGE_MAX)),
})
const searchBody = z.object({ query: z.string().default(''), per_page: digits.default(20) })

export const platformRoutes = new Hono<{ Bindings: SandboxEnv }>()

platformRoutes.use('*', async (c, next) => {
  const origin = callOriginOf(c.req.raw.headers)
  // A CORS preflight (what a browser sends before a sign-in POST, and what [idx 60497690475]
  // measured): refused like the call it announces, else answered for the web app's origins.
  if (c.req.method === 'OPTIONS')
    return (await worldOf(c).preflightRefused(c.req.path, origin)) ? plainText500() : preflight(c.req.header('Origin'))
  // The platform's firewall answers before the API sees the call (firewall.ts, network.ts, cdn.ts):
  // a blocked client, an account call from a network the datacenter mode refuses, an account call
  // without the CDN's cookies when the world wants them, one without a browser User-Agent, a book
  // without the web app's Origin and Referer.
  const userAgent = c.req.header('User-Agent') ?? ''
  const accountCall = userToken(c) !== null || c.req.path === '/3/auth/refresh'
  const world = new URL(c.req.url).hostname
  const carriesCookies = carriesCdnCookies(world, c.req.header('Cookie'))
  const blocked = await worldOf(c).firewall({ userAgent, path: c.req.path, origin, accountCall, carriesCookies })
  if (blocked === 'cookie_challenge') return cookieChallenge()
  if (blocked) return blockedAnswer(blocked)
  if (!looksLikeABrowser(userAgent)) return plainText500()
  if (c.req.path === '/3/book' && !looksLikeTheWebApp(c.req.header('Origin'), c.req.header('Referer'))) return plainText500()
  // A wrong or rotated API key gets the same 419 as bad user credentials (`Cierge:resy/token.go`; docs/platform.md, "Requests and headers").
  if (c.req.header('Authorization') !== `ResyAPI api_key="${c.env.PLATFORM_API_KEY}"`) return unauthorized(c)
  await next()
})

platformRoutes.route('/', signInRoutes)

platformRoutes.get(
  '/2/user',
  endpoint('user', async (c, world) => {
    const token = userToken(c)
    const account = token ? await world.account(token) : null
    return account ? c.json(userJson(account)) : unauthorized(c)
  }),
)

platformRoutes.post(
  '/3/venuesearch/search',
  endpoint('search', async (c) => {
    const text = await c.req.text()
    // JSON, or (as some clients do) the same JSON in the form field struct_data.
    const body = jsonOf(text) ?? jsonOf(new URLSearchParams(text).get('struct_data') ?? '{}')
    const parsed = searchBody.safeParse(body)
    if (!parsed.success) return message(c, 400, 'Bad search')
    return c.json(searchJson(searchVenues(parsed.data.query, Math.min(parsed.data.per_page, 50))))
  }),
)

platformRoutes.get(
  '/3/venue',
  endpoint('venue', async (c) => {
    const id = digits.safeParse(c.req.query('id'))
    const venue = id.success ? await worldOf(c).venueOf(id.data) : undefined
    return venue ? c.json(venueJson(venue)) : message(c, 404, 'Venue not found')
  }),
)

platformRoutes.get(
  '/2/config',
  endpoint('config', async (c) => {
    const id = digits.safeParse(c.req.query('venue_id'))
    const venue = id.success ? await worldOf(c).venueOf(id.data) : undefined
    return venue ? c.json(configJson(venue)) : message(c, 404, 'Venue not found')
  }),
)

/** What fault `odd_entry` adds: a reservation without a time and a slot without a date. */
const ODD_RESERVATION = { reservation_id: 900_000_000, venue: { id: 0 }, day: null, time_slot: null, num_seats: 2 }
const ODD_SLOT = { config: { id: 0, type: 'Dining Room', token: 'rgs://resy/0/0/0/odd', is_visible: true }, date: null }

async function find(c: Ctx, world: World, input: unknown, odd = false): Promise<Response> {
  const q = findQuery.safeParse(input)
  if (!q.success) return message(c, 400, 'Bad find query')
  const offered = await world.offered(q.data.venue_id, q.data.day, q.data.party_size)
  // A day with nothing open (unpublished, sold out, closed, unknown venue) has no venue entry at
  // all: `results.venues: []` (docs/platform.md, "Availability"; seen live 2026-05, `mvanhorn/printing-press-library`).
  if (!offered || offered.slots.length === 0) {
    return c.json({ query: { day: q.data.day, party_size: q.data.party_size }, results: { venues: [] } })
  }
  const answer: { results: { venues: { slots: unknown[] }[] } } = findJson(offered.venue, q.data.day, q.data.party_size, offered.slots)
  if (odd) for (const v of answer.results.venues) v.slots.unshift(ODD_SLOT)
  return c.json(answer)
}
platformRoutes.get(
  '/4/find',
  endpoint('find', (c, world, fault) => find(c, world, c.req.query(), fault?.kind === 'odd_entry')),
)
platformRoutes.post(
  '/4/find',
  endpoint('find', async (c, world, fault) => find(c, world, await jsonBody(c), fault?.kind === 'odd_entry')),
)

/** The longest range one calendar call answers (the web app asks about a month or two). */
const CALENDAR_MAX_DAYS = 120
const calendarQuery = z.object({ venue_id: digits, num_seats: digits, start_date: day, end_date: day })

/**
 * GET /4/venue/calendar?venue_id&num_seats&start_date&end_date: key-only, one status per day
 * (`xunhuang/yumyum-v2:yumutil/src/resy_support.ts` resy_calendar sends exactly these four
 * parameters; docs/platform.md, "Calendar and release").
 */
platformRoutes.get(
  '/4/venue/calendar',
  endpoint('calendar', async (c, world) => {
    const q = calendarQuery.safeParse(c.req.query())
    if (!q.success || q.data.end_date < q.data.start_date) return message(c, 400, 'Bad calendar query')
    const days = (Date.parse(q.data.end_date) - Date.parse(q.data.start_date)) / 86_400_000
    if (days >= CALENDAR_MAX_DAYS) return message(c, 400, 'Date range too long')
    const got = await world.calendar(q.data.venue_id, q.data.num_seats, { start: q.data.start_date, end: q.data.end_date })
    if (!got) return message(c, 404, 'Venue not found')
    return c.json(calendarJson(got.days, got.lastDay))
  }),
)

platformRoutes.post(
  '/3/details',
  endpoint('details', async (c, world) => {
    const token = userToken(c)
    if (!token) return unauthorized(c)
    const body = detailsBody.safeParse(await jsonBody(c))
    if (!body.success) return message(c, 400, 'Bad details request')
    const config = configOfToken(body.data.config_id)
    if (!config || config.key.day !== body.data.day) return message(c, 404, 'Config not found')
    const got = await world.details(token, config, body.data.party_size)
    if (got.kind === 'unauthorized') return unauthorized(c)
    const venue = venueById(config.key.venueId)
    if (got.kind === 'not_found' || !venue) return message(c, 404, 'Config not found')
    return c.json(detailsJson(venue, got.slot, body.data.party_size, got.bookToken, got.expiresAt), 201)
  }),
)

platformRoutes.post(
  '/3/book',
  endpoint('book', async (c, world) => {
    const token = userToken(c)
    if (!token) return unauthorized(c)
    const form = bookForm.safeParse(await c.req.parseBody())
    if (!form.success) return message(c, 400, 'Bad book request')
    let paymentMethodId: number | null = null
    if (form.data.struct_payment_method) {
      const pm = paymentMethod.safeParse(jsonOf(form.data.struct_payment_method))
      if (!pm.success) return message(c, 400, 'Bad struct_payment_method')
      paymentMethodId = pm.data.id
    }
    const client = c.req.header('User-Agent') ?? ''
    const result = await world.book(token, { bookToken: form.data.book_token, paymentMethodId, client })
    if (result.kind === 'unauthorized') return unauthorized(c)
    if (result.kind === 'bare_402') return new Response(null, { status: 402 })
    if (result.kind === 'refused') {
      const body = { status: result.status, message: result.message, ...(result.specs ? { specs: result.specs } : {}) }
      return new Response(JSON.stringify(body), { status: result.status, headers: { 'Content-Type': 'application/json' } })
    }
    return c.json(bookJson(result.booking), 201)
  }),
)

platformRoutes.get(
  '/3/user/reservations',
  endpoint('reservations', async (c, world, fault) => {
    const token = userToken(c)
    const got = token ? await world.reservations(token, fault?.kind === 'stale' ? STALE_LAG_MS : 0) : { kind: 'unauthorized' as const }
    if (got.kind !== 'ok') return unauthorized(c)
    const page = pageQuery.safeParse(c.req.query())
    if (!page.success) return message(c, 400, 'Bad limit or offset')
    const list = reservationsJson(got.bookings, got.history, Date.now(), page.data)
    const odd = fault?.kind === 'odd_entry' && page.data.offset === 0
    return c.json(odd ? { ...list, reservations: [ODD_RESERVATION, ...list.reservations] } : list)
  }),
)
