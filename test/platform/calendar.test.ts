// The venue calendar (GET /4/venue/calendar, shared/reference/resy-api.md, "Corrections and additions", "Corrections (third review)"): the evidence
// fixture maps to the service's words, and the real client asks the sandbox in the platform's wire
// format (the four query parameters public pollers send) and reads its answer.
import { describe, expect, it } from 'vitest'
import { calendarOf } from '../../src/platform/calendar'
import { calendarAnswer } from '../../src/platform/wire'
import { calendarOddWord, calendarReply } from './fixtures/calendar'
import { dayAhead, freshWorld, OPEN_VENUE } from './world'

describe('the calendar answer', () => {
  it('maps each day’s reservation status and the last bookable day', () => {
    expect(calendarOf(calendarAnswer.parse(calendarReply))).toEqual({
      days: { '2026-12-01': 'sold_out', '2026-12-02': 'available', '2026-12-03': 'closed', '2026-12-04': 'not_available' },
      lastCalendarDay: '2026-12-03',
    })
  })

  it('reads a word it does not know as unknown, never as sold out', () => {
    expect(calendarOf(calendarAnswer.parse(calendarOddWord)).days['2026-12-02']).toBe('unknown')
  })
})

describe('the client’s calendar call', () => {
  it('sends venue_id, num_seats, start_date and end_date and reads each day', async () => {
    const world = freshWorld()
    // No generated table seats 19: the day is sold out until the test opens one.
    const day = dayAhead(3)
    const query = { venueId: OPEN_VENUE.id, partySize: 19, startDate: dayAhead(1), endDate: dayAhead(5) }
    const before = await world.platform.venueCalendar(query)
    expect(before.kind).toBe('ok')
    if (before.kind !== 'ok') return
    expect(Object.keys(before.value.days)).toHaveLength(5)
    expect(before.value.days[day]).toBe('sold_out')
    await world.control.addSlot({ venueId: OPEN_VENUE.id, day, time: '23:15', seating: 'Dining Room', partyMin: 19, partyMax: 20 })
    const after = await world.platform.venueCalendar(query)
    expect(after.kind === 'ok' && after.value.days[day]).toBe('available')
    const sent = new URL(world.sent.at(-1)?.url ?? '')
    expect(sent.pathname).toBe('/4/venue/calendar')
    expect(Object.fromEntries(sent.searchParams)).toEqual({
      venue_id: String(OPEN_VENUE.id),
      num_seats: '19',
      start_date: dayAhead(1),
      end_date: dayAhead(5),
    })
    expect(await world.control.calls()).toMatchObject({ calendar: 2 })
  })

  it('is unavailable (after its retries) when the calendar answers 500, as public pollers see it', async () => {
    const world = freshWorld()
    await world.control.injectFault({ endpoint: 'calendar', kind: '500', count: 3 })
    const got = await world.platform.venueCalendar({ venueId: OPEN_VENUE.id, partySize: 2, startDate: dayAhead(1), endDate: dayAhead(2) })
    expect(got.kind).toBe('unavailable')
  })
})
