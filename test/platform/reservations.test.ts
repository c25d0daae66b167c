// The account's reservations through the real client against the sandbox (shared/reference/
// resy-api.md, "Corrections (third review)"): every page is read, and cancelled, finished, past and unreadable entries hold
// no table: none counts as "a table already held for this dinner" or as the booking looked for.
import { describe, expect, it, vi } from 'vitest'
import type { PlatformReservation } from '../../src/platform/api'
import { ourReservation, tableHeldForDinner } from '../../src/request-aggregate/booking/booking-rules'
import { asUser } from '../helpers/credentials'
import { dayAhead, freshWorld, OPEN_VENUE, ownSlot } from './world'

type World = ReturnType<typeof freshWorld>

async function signedIn(world: World, email = 'ada@example.com') {
  const login = await world.platform.login(email, 'pw')
  if (login.kind !== 'ok') throw new Error(`login: ${login.kind}`)
  return login.value
}

async function listed(world: World, authToken: string): Promise<PlatformReservation[]> {
  const got = await world.platform.listReservations(asUser(authToken))
  if (got.kind !== 'ok') throw new Error(`reservations: ${got.kind}`)
  return got.value
}

/** The spec of an auto_book request for this dinner (the fields tableHeldForDinner reads). */
const dinner = (day: string, earliest: string, latest: string) =>
  ({ dates: [day], earliest_time: earliest, latest_time: latest }) as Parameters<typeof tableHeldForDinner>[0]

describe('the account’s reservations', () => {
  it('leave out the cancelled, legacy-cancelled and past entries every account has', async () => {
    const world = freshWorld()
    const account = await signedIn(world)
    expect(await listed(world, account.authToken)).toEqual([])
  })

  it('a cancelled reservation at the same venue, day and time is no table held and does not verify a booking', async () => {
    const world = freshWorld()
    const account = await signedIn(world)
    const slot = await ownSlot(world)
    for (const legacy of [false, true]) {
      await world.control.addHistory({ email: 'ada@example.com', ...slot, partySize: 2, state: 'cancelled', legacy })
    }
    await world.control.addHistory({ email: 'ada@example.com', ...slot, partySize: 2, state: 'no_show' })
    const before = await listed(world, account.authToken)
    expect(before).toEqual([])
    expect(tableHeldForDinner(dinner(slot.day, '22:00', '23:59'), before)).toBeUndefined()
    const attempt = { venueId: slot.venueId, day: slot.day, time: slot.time, partySize: 2, preexisting: [] } as unknown as Parameters<
      typeof ourReservation
    >[0]
    expect(ourReservation(attempt, before, new Set())).toBeUndefined()

    // The real booking of that table is then found, and only it.
    const found = await world.platform.findSlots({ venueId: slot.venueId, day: slot.day, partySize: 2 })
    const configId = found.kind === 'ok' ? found.value.find((s) => s.time === slot.time)?.configId : undefined
    if (!configId) throw new Error('own slot not offered')
    const details = await world.platform.bookingDetails(account, { configId, day: slot.day, partySize: 2 })
    if (details.kind !== 'ok') throw new Error(details.kind)
    const booked = await world.platform.book(account, {
      bookToken: details.value.bookToken,
      paymentMethodId: account.paymentMethodId,
    })
    if (booked.kind !== 'booked') throw new Error(booked.kind)
    const after = await listed(world, account.authToken)
    expect(after.map((r) => r.reservationId)).toEqual([booked.reservationId])
    expect(ourReservation(attempt, after, new Set())?.reservationId).toBe(booked.reservationId)
    expect(tableHeldForDinner(dinner(slot.day, '22:00', '23:59'), after)?.reservationId).toBe(booked.reservationId)
  })

  it('are read from every page (the platform answers 10 a page)', async () => {
    const world = freshWorld()
    const account = await signedIn(world)
    for (let i = 0; i < 12; i++) {
      await world.control.addHistory({
        email: 'ada@example.com',
        venueId: OPEN_VENUE.id,
        day: dayAhead(10 + i),
        time: '19:00',
        seating: 'Bar',
        partySize: 2,
        state: 'cancelled',
      })
    }
    const slot = await ownSlot(world, { day: dayAhead(30) })
    const found = await world.platform.findSlots({ venueId: slot.venueId, day: slot.day, partySize: 2 })
    const configId = found.kind === 'ok' ? found.value.find((s) => s.time === slot.time)?.configId : undefined
    if (!configId) throw new Error('own slot not offered')
    const details = await world.platform.bookingDetails(account, { configId, day: slot.day, partySize: 2 })
    if (details.kind !== 'ok') throw new Error(details.kind)
    const booked = await world.platform.book(account, {
      bookToken: details.value.bookToken,
      paymentMethodId: account.paymentMethodId,
    })
    if (booked.kind !== 'booked') throw new Error(booked.kind)
    // 3 seeded + 12 cancelled entries come before it: the booking is on the second page.
    expect((await listed(world, account.authToken)).map((r) => r.reservationId)).toEqual([booked.reservationId])
    const pages = world.sent
      .filter((r) => new URL(r.url).pathname === '/3/user/reservations')
      .map((r) => new URL(r.url).searchParams.get('offset'))
    expect(pages).toEqual(['0', '10'])
  })

  it('skip an entry of an unknown shape, logged without values', async () => {
    const world = freshWorld()
    const account = await signedIn(world)
    await world.control.injectFault({ endpoint: 'reservations', kind: 'odd_entry' })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    try {
      expect(await listed(world, account.authToken)).toEqual([])
      const lines = warn.mock.calls.map((c) => String(c[0]))
      expect(lines).toEqual([
        expect.stringMatching(/^platform\.skipped_entry \{"path":"\/3\/user\/reservations","entry":"reservations\[0\]"/),
      ])
      expect(lines.join('')).not.toContain(account.authToken)
    } finally {
      warn.mockRestore()
    }
  })
})
