// The sandbox models the calendar's lag behind its tables and the CDN's rate
// rule: above a set number of calls a second from one client, the CDN answers with its block.
import { describe, expect, it } from 'vitest'
import { dayAhead, freshWorld, OPEN_VENUE } from '../platform/world'

const PARTY = 19 // no generated table seats 19: only the test's own tables count
const table = (day: string) => ({ venueId: OPEN_VENUE.id, day, time: '23:15', seating: 'Dining Room', partyMin: 19, partyMax: 20 })

describe('the calendar’s lag', () => {
  it('shows a table opened only after the lag; find sees it at once', async () => {
    const world = freshWorld()
    const day = dayAhead(4)
    const query = { venueId: OPEN_VENUE.id, partySize: PARTY, startDate: day, endDate: day }
    const status = async () => {
      const got = await world.platform.venueCalendar(query)
      return got.kind === 'ok' ? got.value.days[day] : got.kind
    }
    await world.control.setCalendarLag(60_000)
    await world.control.addSlot(table(day))
    const found = await world.platform.findSlots({ venueId: OPEN_VENUE.id, day, partySize: PARTY })
    expect(found.kind === 'ok' && found.value.length).toBe(1)
    expect(await status()).toBe('sold_out') // a minute behind: not yet opened
    await world.control.setCalendarLag(0)
    expect(await status()).toBe('available')
  })

  it('shows a table opened on the venue’s closed day as available, as find offers it', async () => {
    const world = freshWorld()
    const venue = (await world.control.venues()).find((v) => v.release === null && v.closedWeekday !== null)
    if (!venue) throw new Error('no open venue with a closed day')
    const weekday = (day: string) => new Date(`${day}T12:00:00Z`).getUTCDay()
    const day = [2, 3, 4, 5, 6, 7, 8].map((k) => dayAhead(k)).find((d) => weekday(d) === venue.closedWeekday)
    if (!day) throw new Error('no closed day within a week')
    const status = async () => {
      const got = await world.platform.venueCalendar({ venueId: venue.id, partySize: PARTY, startDate: day, endDate: day })
      return got.kind === 'ok' ? got.value.days[day] : got.kind
    }
    expect(await status()).toBe('closed')
    await world.control.addSlot({ ...table(day), venueId: venue.id, seating: venue.seatings[0] ?? 'Dining Room' })
    const found = await world.platform.findSlots({ venueId: venue.id, day, partySize: PARTY })
    expect(found.kind === 'ok' && found.value.length).toBe(1)
    expect(await status()).toBe('available')
  })

  it('still shows tables taken within the lag', async () => {
    const world = freshWorld()
    const day = dayAhead(5)
    const query = { venueId: OPEN_VENUE.id, partySize: 2, startDate: day, endDate: day }
    const status = async () => {
      const got = await world.platform.venueCalendar(query)
      return got.kind === 'ok' ? got.value.days[day] : got.kind
    }
    expect(await status()).toBe('available')
    // Every table for two on that day is taken now (they were on sale from the start).
    for (const s of await world.control.slots(OPEN_VENUE.id, day, 2)) await world.control.removeSlot(s)
    expect(await status()).toBe('sold_out')
    await world.control.setCalendarLag(60_000)
    expect(await status()).toBe('available') // a minute behind: still on sale then
  })
})

describe('the CDN’s rate rule', () => {
  it('lets calls through up to the rate, then blocks the client for a while', async () => {
    const world = freshWorld()
    await world.control.setCdnRate({ callsPerSecond: 3, blockForMs: 60_000 })
    const query = { venueId: OPEN_VENUE.id, partySize: 2, startDate: dayAhead(1), endDate: dayAhead(1) }
    const outcomes: string[] = []
    for (let i = 0; i < 6; i++) outcomes.push((await world.platform.venueCalendar(query)).kind)
    expect(outcomes.slice(0, 3)).toEqual(['ok', 'ok', 'ok'])
    expect(outcomes.slice(3)).toEqual(['blocked', 'blocked', 'blocked'])
    // Off again, the block set meanwhile still holds: the CDN does not forgive at once.
    await world.control.setCdnRate({ callsPerSecond: null })
    expect((await world.platform.venueCalendar(query)).kind).toBe('blocked')
  })

  it('is off by default', async () => {
    const world = freshWorld()
    const query = { venueId: OPEN_VENUE.id, partySize: 2, startDate: dayAhead(1), endDate: dayAhead(1) }
    for (let i = 0; i < 8; i++) expect((await world.platform.venueCalendar(query)).kind).toBe('ok')
  })
})
