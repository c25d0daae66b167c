// One alert per poll: a request over 8 restaurants × 13 dates with dozens of open tables, watched
// through the real availability objects and the sandbox platform, gets one digest per poll —
// inbox, email — not one per table; the next poll's new tables go at once, in one alert.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { AlertGroup } from '../../src/db/alert-groups'
import { addDays, todayIn } from '../../src/lib/zoned-time'
import { findRestaurants } from '../../src/venues/restaurants'
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

    // One round of polls, all at once as the venue-days' own alarms fire, within the alert's gather window.
    const pollAll = () => Promise.all(venues.flatMap((venueId) => dates.map((day) => poll(day, 2, venueId))))
    await pollAll()
    await flushAlerts(request.id)
    const first = await notificationsOf(userId)
    expect(first).toHaveLength(1)
    expect(first[0]?.kind).toBe('table_found')
    expect(first[0]?.body).toMatch(new RegExp(`^${added} tables for 2 at 8 restaurants on \\d+ dates\\.`))
    // The title says what the alert holds: how many tables, over which dates, and the soonest.
    expect(first[0]?.title).toMatch(
      new RegExp(`^Your table for 2: ${added} tables, .+ to .+ · soonest [A-Z][a-z]{2}, [A-Z][a-z]{2} \\d+ · \\d+:\\d{2} PM [A-Z]{2}$`),
    )
    expect(await outboxOf(userId)).toEqual([{ subject: first[0]?.title }])

    // The next poll finds one more table at a restaurant-date already told, and a new restaurant-date:
    // both go at once, in one alert (the gap holds only tables told before).
    await control().addSlot({ venueId: venues[0] ?? 0, day: dates[1] ?? '', time: '23:45', seating: 'Bar', partyMin: 1, partyMax: 6 })
    await control().addSlot({ ...untold, time: '23:30', seating: 'Patio', partyMin: 1, partyMax: 6 })
    await pollAll()
    await flushAlerts(request.id)
    const second = await notificationsOf(userId)
    expect(second).toHaveLength(2)
    expect(second[1]?.body).toMatch(/^2 tables for 2 at 2 restaurants on 2 dates\./)
    expect(second[1]?.body).toMatch(/11:45 PM [A-Z]{2} · Bar/)
    expect(second[1]?.body).toMatch(/11:30 PM [A-Z]{2} · Patio/)
  })

  it('tells the true count of hundreds of tables at 8 restaurants × 14 dates, every restaurant-date in it', {
    timeout: 300_000,
  }, async () => {
    const { token, userId, deps } = await setUp()
    const venues = (await Promise.all(NAMES.map(async (name) => (await findRestaurants(deps, name))[0]?.venue_id))).filter(
      (id): id is number => id !== undefined,
    )
    expect(venues).toHaveLength(8)
    const today = todayIn(ZONE, Date.now())
    const dates = Array.from({ length: 14 }, (_, i) => addDays(today, i + 1))
    // Five-minute steps from 22:00: four to six tables per restaurant-date, and 18 at one of them.
    const times = (n: number) => Array.from({ length: n }, (_, i) => `${22 + Math.floor(i / 12)}:${String((i % 12) * 5).padStart(2, '0')}`)
    for (const [v, venueId] of venues.entries())
      for (const [i, day] of dates.entries())
        for (const time of times(v === 7 && i === 0 ? 18 : 4 + ((v + i) % 3)))
          await control().addSlot({ venueId, day, time, seating: 'Dining Room', partyMin: 1, partyMax: 6 })
    const request = await createRequest(token, {
      venue_ids: venues,
      dates,
      earliest_time: '22:00',
      latest_time: '23:59',
      party_size: 2,
      timezone: ZONE,
      expires_at: `${dates[13]}T21:00:00-05:00`,
    })
    await Promise.all(venues.flatMap((venueId) => dates.map((day) => poll(day, 2, venueId))))
    await flushAlerts(request.id)

    // The sandbox's truth: every table it offers a party of 2 in the window (a closed weekday has none).
    const truth = new Map<string, number>()
    for (const venueId of venues)
      for (const day of dates) {
        const open = (await control().slots(venueId, day, 2)).filter((s) => s.time >= '22:00' && s.time <= '23:59')
        if (open.length > 0) truth.set(`${venueId}:${day}`, open.length)
      }
    const total = [...truth.values()].reduce((a, b) => a + b, 0)
    expect(total).toBeGreaterThan(300) // hundreds: beyond the digest's listing limit
    const { results } = await env.DB.prepare('select title, body, groups from notifications where user_id = ?')
      .bind(userId)
      .all<{ title: string; body: string; groups: string }>()
    expect(results).toHaveLength(1)
    const [alert] = results
    const dateCount = new Set([...truth.keys()].map((k) => k.split(':')[1])).size
    expect(alert?.body.split('\n\n')[0]).toMatch(
      new RegExp(
        `^${total} tables for 2 at 8 restaurants on ${dateCount} dates\\. The soonest: .+, .+ · 10:00 PM [A-Z]{2}\\. Book on the platform before someone else does\\.$`,
      ),
    )
    const groups = JSON.parse(alert?.groups ?? '[]') as AlertGroup[]
    const told = new Map(groups.map((g) => [`${g.venueId}:${g.date}`, g.tables.length + (g.more ?? 0)]))
    expect(told).toEqual(truth)
    expect(Math.min(...groups.map((g) => g.tables.length))).toBeGreaterThanOrEqual(3)
    // The subject names the request, the count and the soonest table's date; the groups come soonest first.
    const first = groups.filter((g) => g.date === dates.find((d) => [...truth.keys()].some((k) => k.endsWith(d))))[0]
    expect(alert?.title).toMatch(new RegExp(`^Your table for 2: ${total} tables, `))
    expect(alert?.title).toContain(`soonest ${first?.tables[0]?.when.split(' · ')[0] ?? 'no date'}`)
    expect(groups[0]?.date).toBe(first?.date)
  })
})
