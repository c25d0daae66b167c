// The real platform client against the sandbox platform over the PLATFORM service binding.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { instantOf } from '../../src/lib/zoned-time'
import { platformFromEnv } from '../../src/platform/from-env'
import { asUser } from '../helpers/credentials'
import { dayAhead, freshWorld, OPEN_VENUE, ownSlot, RELEASE_VENUE } from './world'

describe('account', () => {
  it('logs in with email and password and reports the card on file', async () => {
    const { platform } = freshWorld()
    const login = await platform.login('ada.lovelace@example.com', 'correct horse')
    expect(login).toMatchObject({ kind: 'ok', value: { displayName: 'Ada Lovelace', paymentMethodId: expect.any(Number) } })
    if (login.kind !== 'ok') return
    expect(login.value.authToken.length).toBeGreaterThan(20)
    expect(await platform.checkAccount(login.value)).toEqual({
      kind: 'ok',
      value: { displayName: 'Ada Lovelace', paymentMethodId: login.value.paymentMethodId },
    })
  })

  it('reports an account without a card', async () => {
    const { platform } = freshWorld()
    const login = await platform.login('grace.nocard@example.com', 'pw')
    expect(login).toMatchObject({ kind: 'ok', value: { paymentMethodId: null } })
  })

  it('refuses an empty password, and answers reauth for a token the platform no longer accepts', async () => {
    const { platform, control } = freshWorld()
    expect(await platform.login('ada@example.com', '')).toEqual({ kind: 'refused', reason: 'wrong_password' })
    const login = await platform.login('ada@example.com', 'pw')
    if (login.kind !== 'ok') throw new Error('login failed')
    expect(await control.invalidateTokens('ada@example.com')).toBe(1)
    expect(await platform.checkAccount(login.value)).toEqual({ kind: 'reauth' })
    expect(await platform.listReservations(login.value)).toEqual({ kind: 'reauth' })
  })

  it('mints a new token per login, each valid on its own', async () => {
    const { platform } = freshWorld()
    const a = await platform.login('ada@example.com', 'pw')
    const b = await platform.login('ada@example.com', 'pw')
    if (a.kind !== 'ok' || b.kind !== 'ok') throw new Error('login failed')
    expect(a.value.authToken).not.toBe(b.value.authToken)
    expect((await platform.checkAccount(a.value)).kind).toBe('ok')
  })
})

describe('sessions: expiring tokens and the refresh token', () => {
  it('gets a JWT whose exp is read as the expiry, and the refresh token from the production_refresh_token cookie', async () => {
    const { platform } = freshWorld()
    const login = await platform.login('ada@example.com', 'pw')
    if (login.kind !== 'ok') throw new Error(login.kind)
    // Base64 with + / = (resy-api.md, "Corrections (third review)"), kept exactly as Set-Cookie gave it.
    expect(login.value.refreshToken).toMatch(/^[A-Za-z0-9+/]{40,}=*$/)
    expect(login.value.refreshToken).toMatch(/[+/=]/)
    // The sandbox's default lifetime is the platform's ~45 days.
    expect(login.value.expiresAt).toBeGreaterThan(Date.now() + 44 * 86_400_000)
    expect(login.value.expiresAt).toBeLessThan(Date.now() + 46 * 86_400_000)
  })

  it('refreshes: a new working token and refresh token, and a refresh token works once', async () => {
    const { platform, control } = freshWorld()
    await control.setTokenLifetimes({ authSeconds: 1, refreshSeconds: 3600 })
    const login = await platform.login('ada@example.com', 'pw')
    if (login.kind !== 'ok' || !login.value.refreshToken) throw new Error('login failed')
    await scheduler.wait(1100)
    expect(await platform.checkAccount(login.value)).toEqual({ kind: 'reauth' }) // expired
    const renewed = await platform.refresh({ refreshToken: login.value.refreshToken, cdnCookies: {} })
    if (renewed.kind !== 'ok') throw new Error(renewed.kind)
    expect(renewed.value.refreshToken).not.toBe(login.value.refreshToken)
    expect((await platform.checkAccount(renewed.value)).kind).toBe('ok')
    expect(await platform.refresh({ refreshToken: login.value.refreshToken, cdnCookies: {} })).toEqual({ kind: 'reauth' })
    expect(await platform.refresh({ refreshToken: 'not-a-refresh-token', cdnCookies: {} })).toEqual({ kind: 'reauth' })
  })

  it('reads a 500 whose body says the session is invalid as reauth, without retrying it', async () => {
    const world = freshWorld()
    const login = await world.platform.login('ada@example.com', 'pw')
    if (login.kind !== 'ok') throw new Error(login.kind)
    await world.control.injectFault({ endpoint: 'user', kind: 'session_500', count: 3 })
    expect(await world.platform.checkAccount(login.value)).toEqual({ kind: 'reauth' })
    expect((await world.control.calls()).user).toBe(1)
  })
})

describe('venues', () => {
  it('finds venues by name with city and neighborhood', async () => {
    const { platform } = freshWorld()
    const found = await platform.searchVenues('juniper')
    expect(found).toEqual({
      kind: 'ok',
      value: [{ venueId: 60101, name: 'Juniper & Vine', city: 'New York', neighborhood: 'West Village', bookingBlocker: null }],
    })
    expect(await platform.searchVenues('no such restaurant anywhere')).toEqual({ kind: 'ok', value: [] })
  })

  it('gives the IANA time zone for a legacy zone name and reads the release rule from the find templates’ notes', async () => {
    const { platform, control } = freshWorld()
    const venues = await control.venues()
    expect(venues.find((v) => v.id === RELEASE_VENUE.id)?.wireZone).toBe('EST5EDT')
    expect(await platform.venueDetails(RELEASE_VENUE.id)).toEqual({
      kind: 'ok',
      value: {
        venueId: 60101,
        name: 'Juniper & Vine',
        city: 'New York',
        neighborhood: 'West Village',
        bookingBlocker: null,
        // The street address (location.address_1, locality, region), for the reservation page.
        address: '201 Main St, New York, NY',
        timeZone: 'America/New_York',
        urlSlug: 'juniper-and-vine',
        // location.url_slug: the city part of the venue's web page (alert links).
        citySlug: 'new-york',
        release: { daysInAdvance: 14, time: '09:00' },
      },
    })
  })

  it('reads every seeded venue’s zone and release rule as the sandbox defines them', async () => {
    const { platform, control } = freshWorld()
    for (const venue of await control.venues()) {
      const details = await platform.venueDetails(venue.id)
      if (details.kind !== 'ok') throw new Error(`venue ${venue.id}: ${details.kind}`)
      expect(details.value.timeZone).toBe(venue.zone)
      expect(details.value.release).toEqual(venue.release ? { daysInAdvance: venue.release.days, time: venue.release.time } : null)
    }
  })

  it('answers not_found for an unknown venue', async () => {
    const { platform } = freshWorld()
    expect(await platform.venueDetails(999)).toEqual({ kind: 'not_found' })
  })
})

describe('finding and booking a table', () => {
  it('finds a slot, reads its booking details, books it, and sees it in the account', async () => {
    const world = freshWorld()
    const slot = await ownSlot(world, { seating: 'Patio', policy: { kind: 'fee', feePerPerson: 25, cutoffHours: 24 } })
    const found = await world.platform.findSlots({ venueId: OPEN_VENUE.id, day: slot.day, partySize: 2 })
    if (found.kind !== 'ok') throw new Error(found.kind)
    const mine = found.value.find((s) => s.time === '23:15')
    expect(mine).toMatchObject({ venueId: OPEN_VENUE.id, day: slot.day, seatingType: 'Patio', partyMin: 2, partyMax: 4 })
    if (!mine) return

    const login = await world.platform.login('ada@example.com', 'pw')
    if (login.kind !== 'ok') throw new Error(login.kind)
    const token = login.value.authToken
    const details = await world.platform.bookingDetails(asUser(token), { configId: mine.configId, day: slot.day, partySize: 2 })
    if (details.kind !== 'ok') throw new Error(details.kind)
    const slotStart = instantOf(slot.day, '23:15', OPEN_VENUE.zone)
    expect(details.value).toMatchObject({
      cancellationFee: 25,
      freeCancellationUntil: slotStart - 24 * 3_600_000,
      amounts: { reservationCharge: 0, resyFee: 0, serviceFee: 0, tax: 0, total: 0 },
    })

    const booked = await world.platform.book(asUser(token), {
      bookToken: details.value.bookToken,
      paymentMethodId: login.value.paymentMethodId,
    })
    expect(booked).toMatchObject({ kind: 'booked', reservationId: expect.any(String) })
    if (booked.kind !== 'booked') return
    expect(await world.platform.listReservations(asUser(token))).toEqual({
      kind: 'ok',
      value: [
        { reservationId: booked.reservationId, venueId: OPEN_VENUE.id, day: slot.day, time: '23:15', partySize: 2, seatingType: 'Patio' },
      ],
    })
    const after = await world.platform.findSlots({ venueId: OPEN_VENUE.id, day: slot.day, partySize: 2 })
    expect(after.kind === 'ok' && after.value.some((s) => s.time === '23:15')).toBe(false)
  })

  it('reads fees, deposits, prepayment and tickets from the find slot and its template, where the platform states them', async () => {
    const world = freshWorld()
    const noCard = { isPaid: false, depositFee: null, cancellationFee: null, secsCancelCutOff: null, timeCancelCutOff: null }
    const cases = [
      { time: '23:00', policy: { kind: 'free' as const }, want: noCard, event: false },
      {
        time: '23:10',
        policy: { kind: 'fee' as const, feePerPerson: 30, cutoffHours: 24, cutoffTime: '17:00' },
        want: { isPaid: true, depositFee: null, cancellationFee: 30, secsCancelCutOff: 86_400, timeCancelCutOff: '17:00:00' },
        event: false,
      },
      {
        time: '23:15',
        policy: { kind: 'deposit' as const, amountPerPerson: 40, cutoffHours: 48 },
        want: { isPaid: true, depositFee: 40, secsCancelCutOff: 172_800 },
        event: false,
      },
      { time: '23:30', policy: { kind: 'prepaid' as const, amountPerPerson: 185 }, want: { isPaid: true, depositFee: 185 }, event: false },
      { time: '23:45', policy: { kind: 'ticketed' as const, amountPerPerson: 150 }, want: { isPaid: true, depositFee: 150 }, event: true },
    ]
    for (const c of cases) await ownSlot(world, { time: c.time, policy: c.policy })
    const found = await world.platform.findSlots({ venueId: OPEN_VENUE.id, day: dayAhead(3), partySize: 2 })
    if (found.kind !== 'ok') throw new Error(found.kind)
    for (const c of cases) {
      const terms = found.value.find((s) => s.time === c.time)?.terms
      expect(terms, c.time).toMatchObject({ paymentStated: true, ...c.want })
      expect(terms?.template, c.time).toMatchObject({ isEvent: c.event, needToKnow: expect.stringContaining('We hold tables') })
    }
  })

  it('states in the details only the fee, its cut-off and the money taken at booking', async () => {
    const world = freshWorld()
    const login = await world.platform.login('ada@example.com', 'pw')
    if (login.kind !== 'ok') throw new Error(login.kind)
    const slot = await ownSlot(world, { time: '23:15', policy: { kind: 'prepaid', amountPerPerson: 185 } })
    const found = await world.platform.findSlots({ venueId: slot.venueId, day: slot.day, partySize: 2 })
    const configId = found.kind === 'ok' ? found.value.find((s) => s.time === '23:15')?.configId : undefined
    if (!configId) throw new Error('slot not found')
    const details = await world.platform.bookingDetails(login.value, { configId, day: slot.day, partySize: 2 })
    expect(details).toEqual({
      kind: 'ok',
      value: {
        bookToken: expect.any(String),
        cancellationFee: 185,
        freeCancellationUntil: null,
        amounts: { reservationCharge: 370, resyFee: 0, serviceFee: 0, tax: 0, total: 370 },
      },
    })
  })

  it('finds no slots on a day the venue has not released yet, and some on a released day', async () => {
    const { platform } = freshWorld()
    const unreleased = await platform.findSlots({ venueId: RELEASE_VENUE.id, day: dayAhead(20), partySize: 2 })
    expect(unreleased).toEqual({ kind: 'ok', value: [] })
    let seen = 0
    for (let d = 1; d <= 7; d++) {
      const got = await platform.findSlots({ venueId: RELEASE_VENUE.id, day: dayAhead(d), partySize: 2 })
      if (got.kind === 'ok') seen += got.value.length
    }
    expect(seen).toBeGreaterThan(0)
  })

  it('builds the client from configuration, through the PLATFORM binding', async () => {
    const platform = platformFromEnv(env)
    expect(await platform.searchVenues('Saguaro')).toMatchObject({ kind: 'ok', value: [{ name: 'Saguaro Supper', city: 'Phoenix' }] })
  })
})
