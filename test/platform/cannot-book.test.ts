// Slots and venues an ordinary account cannot or must not book, one table per token, and book
// answers about the call's format: the real client against the sandbox platform, whose fixtures
// state what the public captures show (docs/platform.md, "Venues and search", "Availability",
// "Money terms", "Booking").
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { Slot } from '../../src/platform/api'
import { DEFAULT_USER_AGENT } from '../../src/platform/user-agent'
import { dayAhead, freshWorld, ownSlot } from './world'

type World = ReturnType<typeof freshWorld>

async function signedIn(world: World) {
  const got = await world.platform.login('ada@example.com', 'pw')
  if (got.kind !== 'ok') throw new Error(`login: ${got.kind}`)
  return got.value
}

async function venueNamed(world: World, name: string) {
  const venue = (await world.control.venues()).find((v) => v.name === name)
  if (!venue) throw new Error(`no ${name} in the seed`)
  return venue
}

/** The venue's slots for a party of 2 on `day`, through the client. */
async function slotsAt(world: World, venueId: number, day: string): Promise<Slot[]> {
  const got = await world.platform.findSlots({ venueId, day, partySize: 2 })
  if (got.kind !== 'ok') throw new Error(`find: ${got.kind}`)
  return got.value
}

/** The raw find entries of the sandbox's answer: what the platform sends, before the client reads it. */
async function rawEntries(world: World, venueId: number, day: string): Promise<Record<string, unknown>[]> {
  const url = `${world.baseUrl}/4/find?venue_id=${venueId}&day=${day}&party_size=2&lat=0&long=0`
  const res = await env.PLATFORM?.fetch(
    new Request(url, {
      headers: {
        Authorization: `ResyAPI api_key="${env.PLATFORM_API_KEY}"`,
        'User-Agent': DEFAULT_USER_AGENT,
        Origin: 'https://resy.com',
        Referer: 'https://resy.com/',
      },
    }),
  )
  if (!res?.ok) throw new Error(`raw find: ${res?.status}`)
  const body = (await res.json()) as { results: { venues: { slots: Record<string, unknown>[] }[] } }
  return body.results.venues[0]?.slots ?? []
}

describe('venues the service cannot book, by the flags of the fifth review', () => {
  it('reads gda_concierge_booking, requires_reservation_transfers, source.name and a future reopen.date; a past reopen.date means nothing', async () => {
    const world = freshWorld()
    const concierge = await venueNamed(world, 'Camelback Concierge')
    // The wide search's hit carries the concierge flag.
    expect(await world.platform.searchVenues('Camelback Concierge')).toMatchObject({
      kind: 'ok',
      value: [{ venueId: concierge.id, bookingBlocker: 'concierge' }],
    })
    const cases = [
      ['Camelback Concierge', 'concierge'],
      ['Papago Exchange', 'transfers'],
      ['Sonoran Crossing', 'other_platform'],
      ['Roosevelt Reopening', 'closed'],
      ['Saguaro Supper', null],
    ] as const
    for (const [name, blocker] of cases) {
      const venue = await venueNamed(world, name)
      expect(await world.platform.venueDetails(venue.id), name).toMatchObject({ kind: 'ok', value: { bookingBlocker: blocker } })
    }
  })
})

describe('slots an ordinary account cannot book, paid add-ons, one table per token', () => {
  it('leaves cardholder-only slots out (exclusive.is_eligible false, is_global_dining_access true)', async () => {
    const world = freshWorld()
    const venue = await venueNamed(world, 'Mesa Members Room')
    const day = dayAhead(4, venue.zone)
    const raw = await rawEntries(world, venue.id, day)
    const rawSeatings = new Set(raw.map((e) => (e.config as { type: string }).type))
    expect(rawSeatings.has('Members Lounge') || rawSeatings.has('Bar')).toBe(true)
    const slots = await slotsAt(world, venue.id, day)
    expect(slots.length).toBeGreaterThan(0)
    expect(slots.every((s) => s.seatingType === 'Dining Room')).toBe(true)
  })

  it('marks a slot whose payment needs a paid add-on, though every fee field is null', async () => {
    const world = freshWorld()
    const venue = await venueNamed(world, 'Ocotillo Table')
    await ownSlot(world, {
      venueId: venue.id,
      day: dayAhead(3, venue.zone),
      seating: 'Patio',
      policy: { kind: 'free', addOnPerPerson: 45 },
    })
    const slots = await slotsAt(world, venue.id, dayAhead(3, venue.zone))
    const patio = slots.find((s) => s.time === '23:15')
    expect(patio?.terms).toMatchObject({ isPaid: false, depositFee: null, cancellationFee: null, addOnRequired: true })
    expect(slots.filter((s) => s.seatingType === 'Dining Room').every((s) => s.terms.addOnRequired === false)).toBe(true)
  })

  it('reads entries sharing one config.token as one table, and never filters on config.is_visible', async () => {
    const world = freshWorld()
    const venue = await venueNamed(world, 'Ocotillo Table')
    const day = dayAhead(5, venue.zone)
    const raw = await rawEntries(world, venue.id, day)
    const tokens = new Set(raw.map((e) => (e.config as { token: string }).token))
    expect(raw.length).toBe(2 * tokens.size)
    const slots = await slotsAt(world, venue.id, day)
    expect(slots.map((s) => s.configId).sort()).toEqual([...tokens].sort())

    // Elsewhere a third of the bookable tables say is_visible: false; every one is read.
    const open = await slotsAt(world, 60105, day)
    const openRaw = await rawEntries(world, 60105, day)
    expect(openRaw.some((e) => (e.config as { is_visible: boolean }).is_visible === false)).toBe(true)
    expect(open.length).toBe(openRaw.length)
  })

  it('the sandbox refuses a cardholder-only table at book with a 412 and a message, which the client never reads as booked', async () => {
    const world = freshWorld()
    const session = await signedIn(world)
    const venue = await venueNamed(world, 'Mesa Members Room')
    const slot = await ownSlot(world, {
      venueId: venue.id,
      day: dayAhead(3, venue.zone),
      seating: 'Members Lounge',
      policy: { kind: 'free', access: 'exclusive' },
    })
    const raw = await rawEntries(world, venue.id, slot.day)
    const token = raw.map((e) => e.config as { token: string; type: string }).find((c) => c.token.includes('/23:15:00/'))?.token
    if (!token) throw new Error('own slot not offered')
    const details = await world.platform.bookingDetails(session, { configId: token, day: slot.day, partySize: 2 })
    if (details.kind !== 'ok') throw new Error(`details: ${details.kind}`)
    expect(await world.platform.book(session, { bookToken: details.value.bookToken, paymentMethodId: null })).toEqual({
      kind: 'unknown',
      detail: 'HTTP 412',
    })
    expect(await world.control.ledger()).toEqual([])
  })
})

describe('book answers about the call’s format', () => {
  it('reads a 415 page and a JSON 400 as format answers to verify on the account: never a block, never a refusal', async () => {
    const world = freshWorld()
    const session = await signedIn(world)
    for (const kind of ['format_415', 'format_400'] as const) {
      const slot = await ownSlot(world, { time: kind === 'format_415' ? '23:15' : '23:30' })
      const found = await slotsAt(world, slot.venueId, slot.day)
      const configId = found.find((s) => s.time === slot.time)?.configId ?? 'missing'
      const details = await world.platform.bookingDetails(session, { configId, day: slot.day, partySize: 2 })
      if (details.kind !== 'ok') throw new Error(`details: ${details.kind}`)
      await world.control.injectFault({ endpoint: 'book', kind })
      const status = kind === 'format_415' ? 415 : 400
      expect(await world.platform.book(session, { bookToken: details.value.bookToken, paymentMethodId: null })).toEqual({
        kind: 'unknown',
        detail: `HTTP ${status}: a format answer`,
      })
    }
    expect(await world.control.ledger()).toEqual([])
    // The booking details stay JSON: /3/details answers 415 to a form.
    const detailsCalls = world.sent.filter((r) => new URL(r.url).pathname === '/3/details')
    expect(detailsCalls.every((r) => r.headers.get('Content-Type')?.startsWith('application/json'))).toBe(true)
  })
})
