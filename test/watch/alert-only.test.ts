import { describe, expect, it } from 'vitest'
import { control, createRequest, flushAlerts, notificationsOf, outboxOf, poll, runAlarm, runPoll, setUp, VENUE, view } from './world'

describe('alert_only watching', () => {
  it('alerts once for a newly seen matching slot, however often the alarm runs', async () => {
    const { token, userId, day: DAY, spec } = await setUp()
    await control().addSlot({ venueId: VENUE, day: DAY, time: '23:15', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
    const request = await createRequest(token, spec())
    expect(request.status).toBe('active')

    await poll(DAY)
    await runPoll(DAY)
    await poll(DAY)
    await flushAlerts(request.id)
    await runAlarm(request.id)
    await flushAlerts(request.id)

    const alerts = await notificationsOf(userId)
    expect(alerts).toHaveLength(1)
    expect(alerts[0]).toMatchObject({ kind: 'table_found' })
    expect(alerts[0]?.body).toContain('11:15 PM')
    expect(alerts[0]?.body).toContain('1 table for 2')
    expect(alerts[0]?.body).toContain('Dining Room')
    // The venue's page under its city (location.url_slug from /3/venue), on that day for the party.
    expect(alerts[0]?.link).toBe(`https://resy.com/cities/new-york/venues/pomelo-garden?date=${DAY}&seats=2`)
    expect(await outboxOf(userId)).toHaveLength(1)
    const seen = await view(token, request.id)
    expect(seen.status).toBe('active')
    expect(seen.last_checked_at).not.toBeNull()
  })

  it('alerts from the poll that found the table, without waiting, when the request watches one venue-day', async () => {
    const { token, userId, day: DAY, spec } = await setUp()
    await control().addSlot({ venueId: VENUE, day: DAY, time: '23:15', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
    const request = await createRequest(token, spec())

    await poll(DAY) // no alarm of the request's runs: the push itself alerts

    expect((await notificationsOf(userId)).map((n) => n.kind)).toEqual(['table_found'])
    expect((await view(token, request.id)).status).toBe('active')
  })

  it('is not called for slots outside the window, for another party size, or with the wrong seating', async () => {
    const { token, userId, day: DAY, spec } = await setUp()
    const sandbox = control()
    await sandbox.addSlot({ venueId: VENUE, day: DAY, time: '22:30', seating: 'Dining Room', partyMin: 1, partyMax: 8 })
    await sandbox.addSlot({ venueId: VENUE, day: DAY, time: '23:10', seating: 'Dining Room', partyMin: 5, partyMax: 8 })
    await sandbox.addSlot({ venueId: VENUE, day: DAY, time: '23:20', seating: 'Patio', partyMin: 1, partyMax: 8 })
    await sandbox.addSlot({ venueId: VENUE, day: DAY, time: '23:25', seating: 'Little Wayla', partyMin: 1, partyMax: 8 })
    const request = await createRequest(token, spec({ seating: 'indoor' }))
    const before = (await view(token, request.id)).trace.length

    await poll(DAY)

    expect(await notificationsOf(userId)).toEqual([])
    const seen = await view(token, request.id)
    expect(seen.trace).toHaveLength(before) // the request was never woken: nothing it wants appeared
    expect(seen.last_checked_at).not.toBeNull()
  })

  it('alerts again only for a slot it has not seen before', async () => {
    const { token, userId, day: DAY, spec } = await setUp()
    const sandbox = control()
    await sandbox.addSlot({ venueId: VENUE, day: DAY, time: '23:15', seating: 'Bar', partyMin: 1, partyMax: 4 })
    const request = await createRequest(token, spec())
    await poll(DAY)
    await flushAlerts(request.id)
    await sandbox.addSlot({ venueId: VENUE, day: DAY, time: '23:30', seating: 'Bar', partyMin: 1, partyMax: 4 })
    await poll(DAY)
    await runPoll(DAY)
    // The same restaurant-date a moment later: the new slot alone, at once (the gap holds only repeats).
    expect((await notificationsOf(userId)).map((n) => n.title)).toEqual([
      expect.stringContaining('11:15 PM'),
      expect.stringContaining('11:30 PM'),
    ])
  })
})
