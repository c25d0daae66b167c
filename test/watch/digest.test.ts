// One alert per poll (issue 16, Done when): a request over 8 restaurants × 13 dates with dozens
// of open tables, watched through the real availability objects and the sandbox platform, gets
// one digest per poll — inbox, email — not one per table; the per-request gap holds the next
// one unless a new restaurant-date appears.
import { describe, expect, it } from 'vitest'
import { addDays, todayIn } from '../../src/lib/zoned-time'
import { findRestaurants } from '../../src/requests/restaurants'
import { control, createRequest, flushAlerts, notificationsOf, outboxOf, poll, setUp, ZONE } from './world'

const NAMES = ['Juniper', 'Ferro', 'Little Ember', 'Harbor Lantern', 'Pomelo', 'Saltgrass', 'Atlas Rooftop', 'Marrow']

describe('digests', () => {
  it('sends one alert per poll for 8 restaurants × 13 dates with dozens of open tables', { timeout: 180_000 }, async () => {
    const { token, userId, deps } = await setUp()
    const venues = (await Promise.all(NAMES.map(async (name) => (await findRestaurants(deps, name))[0]?.venue_id))).filter(
      (id): id is number => id !== undefined,
    )
    expect(venues).toHaveLength(8)
    const today = todayIn(ZONE, Date.now())
    const dates = Array.from({ length: 13 }, (_, i) => addDays(today, i + 1))
    let added = 0
    const untold = { venueId: venues[7] ?? 0, day: dates[12] ?? '' }
    for (const venueId of venues) {
      for (const [i, day] of dates.entries()) {
        if (venueId === untold.venueId && day === untold.day) continue // appears later, as a new restaurant-date
        for (const time of i % 3 === 0 ? ['23:00', '23:15', '23:30'] : ['23:15']) {
          if (await control().addSlot({ venueId, day, time, seating: 'Dining Room', partyMin: 1, partyMax: 6 })) added++
        }
      }
    }
    expect(added).toBeGreaterThan(36) // dozens (a closed weekday refuses a few)
    const request = await createRequest(token, {
      venue_ids: venues,
      dates,
      earliest_time: '23:00',
      latest_time: '23:45',
      party_size: 2,
      timezone: ZONE,
      expires_at: `${dates[12]}T22:00:00-05:00`,
    })

    const pollAll = async () => {
      for (const venueId of venues) for (const day of dates) await poll(day, 2, venueId)
    }
    await pollAll()
    await flushAlerts(request.id)
    const first = await notificationsOf(userId)
    expect(first).toHaveLength(1)
    expect(first[0]?.kind).toBe('table_found')
    expect(first[0]?.title).toMatch(new RegExp(`^${added} tables open at 8 restaurants on \\d+ dates$`))
    expect(await outboxOf(userId)).toEqual([{ subject: first[0]?.title }])

    // The next poll finds one more table at a restaurant-date already told: held by the gap.
    await control().addSlot({ venueId: venues[0] ?? 0, day: dates[1] ?? '', time: '23:45', seating: 'Bar', partyMin: 1, partyMax: 6 })
    await pollAll()
    await flushAlerts(request.id)
    expect(await notificationsOf(userId)).toHaveLength(1)

    // A new restaurant-date goes out at once, with the held table in the same alert.
    await control().addSlot({ ...untold, time: '23:30', seating: 'Patio', partyMin: 1, partyMax: 6 })
    await poll(untold.day, 2, untold.venueId)
    await flushAlerts(request.id)
    const second = await notificationsOf(userId)
    expect(second).toHaveLength(2)
    expect(second[1]?.title).toBe('2 tables open at 2 restaurants on 2 dates')
    expect(second[1]?.body).toMatch(/11:45 PM [A-Z]{2} · Bar/)
    expect(second[1]?.body).toMatch(/11:30 PM [A-Z]{2} · Patio/)
  })
})
