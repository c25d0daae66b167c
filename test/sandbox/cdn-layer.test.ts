// The sandbox answers like the platform behind its CDN (shared/reference/resy-api.md, "Corrections (third review)"), always:
// Imperva's headers and cookies on every answer, the firewall's plain-text 500, empty find days
// without a venue entry, a paged reservation list with cancelled and legacy entries, refresh
// tokens with + / =. Checked on the wire, below the client.
import { describe, expect, it } from 'vitest'
import { dayAhead, freshWorld, OPEN_VENUE, ownSlot } from '../platform/world'
import { userHeaders, wire } from './raw'

function expectCdn(res: Response) {
  expect(res.headers.get('X-CDN')).toBe('Imperva')
  expect(res.headers.get('X-Iinfo')).toMatch(/^\d+-\d+-\d+ /)
  const names = res.headers.getSetCookie().map((c) => c.slice(0, c.indexOf('=')))
  expect(names).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^visid_incap_\d+$/),
      expect.stringMatching(/^incap_ses_\d+_\d+$/),
      expect.stringMatching(/^nlbi_\d+$/),
    ]),
  )
}

async function signIn(baseUrl: string, email = 'ada@example.com') {
  const res = await wire(baseUrl, '/3/auth/password', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password: 'pw' }),
  })
  const refresh = res.headers
    .getSetCookie()
    .find((c) => c.startsWith('production_refresh_token='))
    ?.split(';')[0]
    ?.slice('production_refresh_token='.length)
  const { token } = (await res.json()) as { token: string }
  return { res, token, refresh: refresh ?? '' }
}

describe('every answer carries the CDN’s headers and cookies', () => {
  it('successes (200, 201), API errors (404, 412, 419) and firewall answers alike', async () => {
    const world = freshWorld()
    const { res: login, token } = await signIn(world.baseUrl)
    expect(login.status).toBe(200)
    expectCdn(login)
    const config = await wire(world.baseUrl, '/2/config?venue_id=60101')
    expect(config.status).toBe(200)
    expectCdn(config)
    const missing = await wire(world.baseUrl, '/3/venue?id=1')
    expect(missing.status).toBe(404)
    expectCdn(missing)
    const wrongKey = await wire(world.baseUrl, '/2/config?venue_id=60101', { headers: { Authorization: 'ResyAPI api_key="wrong"' } })
    expect(wrongKey.status).toBe(419)
    expectCdn(wrongKey)
    await world.control.injectFault({ endpoint: 'user', kind: '412' })
    const precondition = await wire(world.baseUrl, '/2/user', { headers: userHeaders(token) })
    expect(precondition.status).toBe(412)
    expectCdn(precondition)
    const slot = await ownSlot(world)
    const found = await world.platform.findSlots({ venueId: slot.venueId, day: slot.day, partySize: 2 })
    const configId = found.kind === 'ok' ? found.value.find((s) => s.time === slot.time)?.configId : undefined
    const details = await wire(world.baseUrl, '/3/details', {
      method: 'POST',
      headers: { ...userHeaders(token), 'Content-Type': 'application/json' },
      body: JSON.stringify({ commit: 1, config_id: configId, day: slot.day, party_size: 2 }),
    })
    expect(details.status).toBe(201)
    expectCdn(details)
    const refused = await wire(world.baseUrl, '/2/config?venue_id=60101', { headers: { 'User-Agent': 'python-requests/2.32.3' } })
    expect([refused.status, await refused.text()]).toEqual([500, 'Internal Server Error'])
    expectCdn(refused)
    await world.control.block({ forMs: 60_000, style: 'cloudfront' })
    expectCdn(await wire(world.baseUrl, '/2/config?venue_id=60101'))
  })

  it('but not the control API, which is no part of the platform', async () => {
    const { baseUrl } = freshWorld()
    const res = await wire(baseUrl, '/__sandbox/calls')
    expect(res.status).toBe(200)
    expect(res.headers.get('X-CDN')).toBeNull()
  })
})

describe('the firewall', () => {
  it('answers a /3/book without the web app’s Origin and Referer with the plain-text 500, before the API (Alkaar#122)', async () => {
    const world = freshWorld()
    const { token } = await signIn(world.baseUrl)
    const book = (drop: string[], headers: Record<string, string> = {}) =>
      wire(world.baseUrl, '/3/book', {
        method: 'POST',
        headers: { ...userHeaders(token), 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({ book_token: 'bt_unknown' }),
        drop,
      })
    for (const [drop, headers] of [
      [['Referer'], {}],
      [['Origin'], {}],
      [[], { Origin: 'https://evil.example', Referer: 'https://evil.example/' }],
    ] as const) {
      const res = await book([...drop], headers)
      expect([res.status, await res.text()]).toEqual([500, 'Internal Server Error'])
    }
    // With them, the API answers (an unknown book token: 404).
    expect((await book([])).status).toBe(404)
    expect((await book([], { Origin: 'https://widgets.resy.com', Referer: 'https://widgets.resy.com/' })).status).toBe(404)
    expect((await world.control.calls()).book).toBe(2)
  })
})

describe('find', () => {
  it('answers a day with nothing open with results.venues: [] (no venue entry)', async () => {
    const { baseUrl } = freshWorld()
    const res = await wire(baseUrl, `/4/find?venue_id=${OPEN_VENUE.id}&day=${dayAhead(200)}&party_size=2&lat=0&long=0`)
    expect(res.status).toBe(200)
    expect(((await res.json()) as { results: unknown }).results).toEqual({ venues: [] })
  })
})

describe('refresh tokens', () => {
  it('hold + / = and are refused when sent decoded or re-encoded, accepted when sent as given', async () => {
    const { baseUrl } = freshWorld()
    const { refresh } = await signIn(baseUrl)
    expect(refresh).toMatch(/\+/)
    expect(refresh).toMatch(/\//)
    expect(refresh).toMatch(/=$/)
    const send = (value: string) =>
      wire(baseUrl, '/3/auth/refresh', { method: 'POST', headers: { Cookie: `production_refresh_token=${value}` } })
    expect((await send(encodeURIComponent(refresh))).status).toBe(419)
    expect((await send(refresh.replace(/\+/g, ' '))).status).toBe(419)
    const renewed = await send(refresh)
    expect(renewed.status).toBe(200)
    expectCdn(renewed)
  })
})

describe('the reservation list', () => {
  type Listed = { reservations: Record<string, unknown>[]; metadata: { total: number } }

  it('pages with limit/offset, and shows every new account’s cancelled, legacy and past entries beside its bookings', async () => {
    const world = freshWorld()
    const { token } = await signIn(world.baseUrl)
    const page = async (query: string) =>
      (await (await wire(world.baseUrl, `/3/user/reservations?type=upcoming&${query}`, { headers: userHeaders(token) })).json()) as Listed
    const all = await page('limit=10&offset=0')
    expect(all.metadata.total).toBe(3)
    expect(all.reservations.map((r) => r.status)).toEqual(
      expect.arrayContaining([{ finished: 1, no_show: 0 }, { reservation: 'Cancelled', finished: 0, no_show: 0 }, 'Cancelled']),
    )
    // The legacy entry: time_slot an object, no day.
    const legacy = all.reservations.find((r) => typeof r.time_slot === 'object')
    expect(legacy?.day).toBeUndefined()
    expect(legacy?.time_slot).toEqual({ date: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:00$/) })
    const first = await page('limit=2&offset=0')
    const second = await page('limit=2&offset=2')
    expect([first.reservations.length, second.reservations.length, second.metadata.total]).toEqual([2, 1, 3])
    expect([...first.reservations, ...second.reservations].map((r) => r.reservation_id)).toEqual(
      all.reservations.map((r) => r.reservation_id),
    )
    // At most 10 a page, whatever the limit asked.
    for (let i = 0; i < 9; i++) {
      await world.control.addHistory({
        email: 'ada@example.com',
        venueId: 60101,
        day: dayAhead(10 + i),
        time: '19:00',
        seating: 'Bar',
        partySize: 2,
        state: 'cancelled',
      })
    }
    const capped = await page('limit=50&offset=0')
    expect([capped.reservations.length, capped.metadata.total]).toEqual([10, 12])
    // History is no booking: the ledger is empty.
    expect(await world.control.ledger()).toEqual([])
  })
})
