// The sandbox platform itself: seed data, inventory rules, wire-level checks and the control API.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { sandboxControl } from '../../sandbox/control-client'
import { DEFAULT_USER_AGENT } from '../../src/platform/user-agent'
import { dayAhead, freshWorld, OPEN_VENUE, ownSlot, RELEASE_VENUE } from '../platform/world'
import { userHeaders, wire } from './raw'

describe('seed', () => {
  it('has 40+ fictional venues in at least 4 cities and 3 time zones', async () => {
    const venues = await freshWorld().control.venues()
    expect(venues.length).toBeGreaterThanOrEqual(40)
    expect(new Set(venues.map((v) => v.city)).size).toBeGreaterThanOrEqual(4)
    expect(new Set(venues.map((v) => v.zone)).size).toBeGreaterThanOrEqual(3)
    expect(new Set(venues.map((v) => v.id)).size).toBe(venues.length)
  })

  it('offers varied seating types and every kind of fee policy, and some release rules', async () => {
    const venues = await freshWorld().control.venues()
    const seatings = new Set(venues.flatMap((v) => v.seatings))
    for (const s of ['Dining Room', 'Bar', 'Counter', 'Patio', 'Rooftop', 'Garden', "Chef's Room"]) expect(seatings).toContain(s)
    const kinds = new Set(venues.flatMap((v) => Object.values(v.policies).map((p) => p.kind)))
    expect([...kinds].sort()).toEqual(['deposit', 'fee', 'free', 'prepaid', 'ticketed'])
    // Money stated outside the slot's payment: a fee only in the notes, a
    // large-party fee, details that charge at booking or state no amounts.
    const policies = venues.flatMap((v) => Object.values(v.policies))
    expect(policies.some((p) => p.textFeePerPerson !== undefined)).toBe(true)
    expect(policies.some((p) => p.largeParty !== undefined)).toBe(true)
    expect(policies.some((p) => (p.charges?.resyFee ?? 0) > 0)).toBe(true)
    expect(policies.some((p) => (p.charges?.serviceFee ?? 0) > 0)).toBe(true)
    expect(policies.some((p) => p.gap === 'amounts_missing')).toBe(true)
    expect(venues.filter((v) => v.release).length).toBeGreaterThanOrEqual(5)
  })
})

describe('inventory', () => {
  it('is the same in every fresh world (generated from a seed per venue and day)', async () => {
    const day = dayAhead(5)
    const a = await freshWorld().control.slots(OPEN_VENUE.id, day)
    const b = await freshWorld().control.slots(OPEN_VENUE.id, day)
    expect(a.length).toBeGreaterThan(0)
    expect(a).toEqual(b)
  })

  it('hides days whose release instant has not passed', async () => {
    const { control } = freshWorld()
    expect(await control.slots(RELEASE_VENUE.id, dayAhead(15))).toEqual([])
    expect(await control.slots(RELEASE_VENUE.id, dayAhead(45))).toEqual([])
    const released = await Promise.all([1, 2, 3, 4, 5, 6, 7].map((d) => control.slots(RELEASE_VENUE.id, dayAhead(d))))
    expect(released.flat().length).toBeGreaterThan(0)
  })

  it('offers nothing past the 90-day horizon', async () => {
    expect(await freshWorld().control.slots(OPEN_VENUE.id, dayAhead(95))).toEqual([])
  })

  it('answers /4/find the same by GET and by POST', async () => {
    const { baseUrl } = freshWorld()
    const day = dayAhead(4)
    const get = await wire(baseUrl, `/4/find?venue_id=${OPEN_VENUE.id}&day=${day}&party_size=2&lat=0&long=0`)
    const post = await wire(baseUrl, '/4/find', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ venue_id: OPEN_VENUE.id, day, party_size: 2, lat: 0, long: 0 }),
    })
    expect(get.status).toBe(200)
    expect(await post.json()).toEqual(await get.json())
  })
})

describe('bookings', () => {
  it('take the slot off sale and record it in the ledger; reset brings the seeded world back', async () => {
    const world = freshWorld()
    const slot = await ownSlot(world)
    const login = await world.platform.login('ada@example.com', 'pw')
    if (login.kind !== 'ok') throw new Error(login.kind)
    const found = await world.platform.findSlots({ venueId: slot.venueId, day: slot.day, partySize: 2 })
    const configId = found.kind === 'ok' ? found.value.find((s) => s.time === slot.time)?.configId : undefined
    const details = configId ? await world.platform.bookingDetails(login.value, { configId, day: slot.day, partySize: 3 }) : null
    if (details?.kind !== 'ok') throw new Error('no details')
    await world.platform.book(login.value, { bookToken: details.value.bookToken, paymentMethodId: null })

    expect((await world.control.slots(slot.venueId, slot.day)).some((s) => s.time === slot.time)).toBe(false)
    expect(await world.control.ledger()).toMatchObject([
      { email: 'ada@example.com', venueId: slot.venueId, day: slot.day, time: slot.time, partySize: 3, policy: { kind: 'free' } },
    ])
    await world.control.reset()
    expect(await world.control.ledger()).toEqual([])
    expect(await world.platform.checkAccount(login.value)).toEqual({ kind: 'reauth' })
  })

  it('refuse a second booking of the same table time by the same account as 412', async () => {
    const world = freshWorld()
    const login = await world.platform.login('ada@example.com', 'pw')
    if (login.kind !== 'ok') throw new Error(login.kind)
    const bookAt = async (seating: string) => {
      await ownSlot(world, { seating })
      const found = await world.platform.findSlots({ venueId: OPEN_VENUE.id, day: dayAhead(3), partySize: 2 })
      const configId = found.kind === 'ok' ? found.value.find((s) => s.time === '23:15' && s.seatingType === seating)?.configId : undefined
      const details = configId ? await world.platform.bookingDetails(login.value, { configId, day: dayAhead(3), partySize: 2 }) : null
      if (details?.kind !== 'ok') throw new Error('no details')
      return world.platform.book(login.value, { bookToken: details.value.bookToken, paymentMethodId: null })
    }
    expect((await bookAt('Dining Room')).kind).toBe('booked')
    expect(await bookAt('Garden')).toEqual({ kind: 'unknown', detail: 'HTTP 412 with specs: the account may already hold this table' })
  })

  it('never book terms the diner was not shown: a change of terms after the find voids its config (404), a fresh find books', async () => {
    const world = freshWorld()
    const slot = await ownSlot(world)
    const key = { venueId: slot.venueId, day: slot.day, time: slot.time, seating: slot.seating }
    const login = await world.platform.login('ada@example.com', 'pw')
    if (login.kind !== 'ok') throw new Error(login.kind)
    const bookTokenFor = async () => {
      const found = await world.platform.findSlots({ venueId: slot.venueId, day: slot.day, partySize: 2 })
      const configId = found.kind === 'ok' ? found.value.find((s) => s.time === slot.time)?.configId : undefined
      const details = configId ? await world.platform.bookingDetails(login.value, { configId, day: slot.day, partySize: 2 }) : null
      if (details?.kind !== 'ok') throw new Error('no details')
      return details.value.bookToken
    }
    const shownFree = await bookTokenFor()
    // The venue's find reply now leaves its template out: a ticketed event can no longer be ruled out.
    await world.control.setPolicy(key, { kind: 'free', gap: 'template_missing' })
    const stale = await world.platform.book(login.value, { bookToken: shownFree, paymentMethodId: null })
    expect(stale.kind).not.toBe('booked')
    expect(await world.control.ledger()).toEqual([])

    await world.control.setPolicy(key, { kind: 'free' })
    const booked = await world.platform.book(login.value, { bookToken: await bookTokenFor(), paymentMethodId: null })
    expect(booked.kind).toBe('booked')
    expect(await world.control.ledger()).toMatchObject([{ time: slot.time, policy: { kind: 'free' } }])
  })
})

describe('control API', () => {
  it('changes a slot’s fees', async () => {
    const world = freshWorld()
    const slot = await ownSlot(world)
    const key = { venueId: slot.venueId, day: slot.day, time: slot.time, seating: slot.seating }
    expect(await world.control.setPolicy(key, { kind: 'fee', feePerPerson: 60, cutoffHours: 48 })).toBe(true)
    expect((await world.control.slots(slot.venueId, slot.day)).find((s) => s.time === slot.time)?.policy).toEqual({
      kind: 'fee',
      feePerPerson: 60,
      cutoffHours: 48,
    })
    expect(await world.control.removeSlot(key)).toBe(true)
    expect(await world.control.setPolicy(key, { kind: 'free' })).toBe(false)
  })

  it('counts every call by the second it arrived, for the platform’s view of how calls bunch', async () => {
    const world = freshWorld()
    const since = Date.now()
    const day = dayAhead(3)
    for (let i = 0; i < 3; i++) await wire(world.baseUrl, `/4/find?venue_id=${OPEN_VENUE.id}&day=${day}&party_size=2&lat=0&long=0`)
    const perSecond = await world.control.callsPerSecond(since)
    expect(perSecond.reduce((sum, [, n]) => sum + n, 0)).toBe(3)
    for (const [second] of perSecond) expect(second * 1000).toBeGreaterThanOrEqual(Math.floor(since / 1000) * 1000)
  })

  it('publishes a table added for a later instant only from that instant, to find as to the control API', async () => {
    const world = freshWorld()
    const day = dayAhead(6)
    const opensAt = Date.now() + 1_500
    const table = { venueId: OPEN_VENUE.id, day, time: '23:41', seating: 'Dining Room', partyMin: 2, partyMax: 2, opensAt }
    expect(await world.control.addSlot(table)).toBe(true)
    const offered = async () => {
      const find = await wire(world.baseUrl, `/4/find?venue_id=${OPEN_VENUE.id}&day=${day}&party_size=2&lat=0&long=0`)
      const body = JSON.stringify(await find.json())
      return {
        find: body.includes(`${day} 23:41:00`),
        control: (await world.control.slots(OPEN_VENUE.id, day)).some((s) => s.time === '23:41'),
      }
    }
    expect(await offered()).toEqual({ find: false, control: false })
    await new Promise((resolve) => setTimeout(resolve, opensAt - Date.now() + 50))
    expect(await offered()).toEqual({ find: true, control: true })
  })

  it('expires every auth token at once (419 from then on) while refresh tokens keep working', async () => {
    const world = freshWorld()
    const login = await world.platform.login('ada@example.com', 'pw')
    if (login.kind !== 'ok') throw new Error(login.kind)
    const { authToken, refreshToken } = login.value
    const headers = { 'X-Resy-Auth-Token': authToken, 'X-Resy-Universal-Auth': authToken }
    expect((await wire(world.baseUrl, '/2/user', { headers })).status).toBe(200)
    expect(await world.control.expireAuthTokens()).toBeGreaterThanOrEqual(1)
    expect((await wire(world.baseUrl, '/2/user', { headers })).status).toBe(419)
    expect((await world.platform.refresh({ refreshToken: refreshToken ?? '', cdnCookies: {} })).kind).toBe('ok')
  })

  it('demo tick adds and removes tables', async () => {
    const { control } = freshWorld()
    const result = await control.demoTick()
    expect(result.added + result.removed).toBeGreaterThan(0)
  })

  it('is refused (404) when the sandbox runs without SANDBOX_CONTROL=on, while the platform API still answers', async () => {
    const locked = sandboxControl({ fetcher: env.SANDBOX_LOCKED, baseUrl: 'https://locked.sandbox.test' })
    await expect(locked.venues()).rejects.toMatchObject({ status: 404 })
    await expect(locked.reset()).rejects.toMatchObject({ status: 404 })
    const res = await env.SANDBOX_LOCKED.fetch(
      new Request('https://locked.sandbox.test/2/config?venue_id=60101', {
        headers: { Authorization: `ResyAPI api_key="${env.PLATFORM_API_KEY}"`, 'User-Agent': DEFAULT_USER_AGENT },
      }),
    )
    expect(res.status).toBe(200)
  })
})

describe('wire checks', () => {
  it('answers a wrong API key with 419, as it answers bad user credentials', async () => {
    const { baseUrl } = freshWorld()
    expect((await wire(baseUrl, '/2/config?venue_id=60101', { headers: { Authorization: 'ResyAPI api_key="wrong"' } })).status).toBe(419)
  })

  it('answers 500 with the plain text Internal Server Error without a User-Agent, as the platform’s firewall does (resy-api.md, "Corrections (third review)")', async () => {
    const { baseUrl } = freshWorld()
    const res = await wire(baseUrl, '/2/config?venue_id=60101', { drop: ['User-Agent'] })
    expect(res.status).toBe(500)
    expect(await res.text()).toBe('Internal Server Error')
  })

  it.each([
    'Tablewatch/0.1 (reservation watcher)',
    'python-requests/2.32.3',
    'node',
    'curl/8.9.1',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/153.0.0.0 Safari/537.36',
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  ])('refuses the non-browser User-Agent %j with the plain-text 500 on every endpoint', async (userAgent) => {
    const { baseUrl } = freshWorld()
    for (const path of ['/2/config?venue_id=60101', '/4/find?venue_id=60105&day=2030-01-01&party_size=2&lat=0&long=0', '/2/user']) {
      const res = await wire(baseUrl, path, { headers: { 'User-Agent': userAgent } })
      expect(res.status).toBe(500)
      expect(await res.text()).toBe('Internal Server Error')
    }
  })

  it.each([
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:140.0) Gecko/20100101 Firefox/140.0',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  ])('serves the browser User-Agent %j', async (userAgent) => {
    const { baseUrl } = freshWorld()
    expect((await wire(baseUrl, '/2/config?venue_id=60101', { headers: { 'User-Agent': userAgent } })).status).toBe(200)
  })

  it('wants the user token in both headers (419 otherwise)', async () => {
    const world = freshWorld()
    const login = await world.platform.login('ada@example.com', 'pw')
    if (login.kind !== 'ok') throw new Error(login.kind)
    const token = login.value.authToken
    expect((await wire(world.baseUrl, '/2/user', { headers: { 'X-Resy-Auth-Token': token } })).status).toBe(419)
    expect((await wire(world.baseUrl, '/2/user', { headers: { 'X-Resy-Auth-Token': token, 'X-Resy-Universal-Auth': token } })).status).toBe(
      200,
    )
  })
})

describe('the firewall’s blocks', () => {
  const config = '/2/config?venue_id=60101'

  it('answers a blocked client the way the CDN/WAF does, for each style, until the block ends', async () => {
    const { baseUrl, control } = freshWorld()
    await control.block({ forMs: 60_000, style: 'empty_500' })
    let res = await wire(baseUrl, config)
    expect([res.status, await res.text()]).toEqual([500, ''])
    await control.block({ forMs: 60_000, style: 'html_403' })
    res = await wire(baseUrl, config)
    expect([res.status, res.headers.get('Content-Type')]).toEqual([403, 'text/html; charset=utf-8'])
    await control.block({ forMs: 60_000, style: 'cloudfront' })
    res = await wire(baseUrl, config)
    expect([res.status, res.headers.get('X-Cache')]).toEqual([403, 'Error from cloudfront'])
    await control.block({ forMs: 60_000, style: 'imperva' })
    res = await wire(baseUrl, config)
    expect([res.status, await res.text()]).toEqual([200, expect.stringContaining('_Incapsula_Resource')])
    await control.block({ forMs: 0 })
    expect((await wire(baseUrl, config)).status).toBe(200)
  })

  it('blocks one client by its User-Agent and not the others, and never counts a blocked call', async () => {
    const { baseUrl, control } = freshWorld()
    const firefox = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:140.0) Gecko/20100101 Firefox/140.0'
    await control.block({ userAgent: firefox, forMs: 60_000, style: 'empty_500' })
    expect((await wire(baseUrl, config, { headers: { 'User-Agent': firefox } })).status).toBe(500)
    expect((await wire(baseUrl, config)).status).toBe(200)
    expect((await control.calls()).config).toBe(1)
  })
})

describe('412 for a table the account holds', () => {
  it('answers a retried book with 412 and a body with specs', async () => {
    const world = freshWorld()
    const slot = await ownSlot(world)
    const login = await world.platform.login('ada@example.com', 'pw')
    if (login.kind !== 'ok') throw new Error(login.kind)
    const found = await world.platform.findSlots({ venueId: slot.venueId, day: slot.day, partySize: 2 })
    const configId = found.kind === 'ok' ? found.value.find((s) => s.time === slot.time)?.configId : undefined
    const details = configId ? await world.platform.bookingDetails(login.value, { configId, day: slot.day, partySize: 2 }) : null
    if (details?.kind !== 'ok') throw new Error('no details')
    const book = () =>
      wire(world.baseUrl, '/3/book', {
        method: 'POST',
        headers: { ...userHeaders(login.value.authToken), 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ book_token: details.value.bookToken }),
      })
    expect((await book()).status).toBe(201)
    const retried = await book()
    expect(retried.status).toBe(412)
    expect(await retried.json()).toMatchObject({ specs: { day: slot.day, time_slot: `${slot.time}:00`, num_seats: 2 } })
    expect(await world.control.ledger()).toHaveLength(1)
  })
})
