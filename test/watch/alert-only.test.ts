import { describe, expect, it } from 'vitest'
import { control, createRequest, nextInterval, notificationsOf, outboxOf, runAlarm, setUp, VENUE, view } from './world'

describe('alert_only watching', () => {
  it('alerts once for a newly seen matching slot, however often the alarm runs', async () => {
    const { token, userId, day: DAY, spec } = await setUp()
    await control().addSlot({ venueId: VENUE, day: DAY, time: '23:15', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
    const request = await createRequest(token, spec())
    expect(request.status).toBe('active')

    await runAlarm(request.id)
    await runAlarm(request.id)
    await runAlarm(request.id)

    const alerts = await notificationsOf(userId)
    expect(alerts).toHaveLength(1)
    expect(alerts[0]).toMatchObject({ kind: 'table_found' })
    expect(alerts[0]?.body).toContain('23:15')
    expect(alerts[0]?.body).toContain('for 2')
    expect(alerts[0]?.body).toContain('Dining Room')
    expect(alerts[0]?.link).toContain(`date=${DAY}`)
    expect(await outboxOf(userId)).toHaveLength(1)
    const seen = await view(token, request.id)
    expect(seen.status).toBe('active')
    expect(seen.last_checked_at).not.toBeNull()
  })

  it('ignores slots outside the window, for another party size, or with the wrong seating', async () => {
    const { token, userId, day: DAY, spec } = await setUp()
    const sandbox = control()
    await sandbox.addSlot({ venueId: VENUE, day: DAY, time: '22:30', seating: 'Dining Room', partyMin: 1, partyMax: 8 })
    await sandbox.addSlot({ venueId: VENUE, day: DAY, time: '23:10', seating: 'Dining Room', partyMin: 5, partyMax: 8 })
    await sandbox.addSlot({ venueId: VENUE, day: DAY, time: '23:20', seating: 'Patio', partyMin: 1, partyMax: 8 })
    await sandbox.addSlot({ venueId: VENUE, day: DAY, time: '23:25', seating: 'Little Wayla', partyMin: 1, partyMax: 8 })
    const request = await createRequest(token, spec({ seating: 'indoor' }))

    await runAlarm(request.id)

    expect(await notificationsOf(userId)).toEqual([])
    const trace = (await view(token, request.id)).trace.map((t) => t.message).join('\n')
    expect(trace).toMatch(/23:20 Patio \(outdoor\) skipped: seating/)
    expect(trace).toMatch(/23:25 Little Wayla skipped: seating/)
  })

  it('alerts again only for a slot it has not seen before', async () => {
    const { token, userId, day: DAY, spec } = await setUp()
    const sandbox = control()
    await sandbox.addSlot({ venueId: VENUE, day: DAY, time: '23:15', seating: 'Bar', partyMin: 1, partyMax: 4 })
    const request = await createRequest(token, spec())
    await runAlarm(request.id)
    await sandbox.addSlot({ venueId: VENUE, day: DAY, time: '23:30', seating: 'Bar', partyMin: 1, partyMax: 4 })
    await nextInterval(DAY)
    await runAlarm(request.id)
    await runAlarm(request.id)
    expect((await notificationsOf(userId)).map((n) => n.title)).toEqual([
      expect.stringContaining('23:15'),
      expect.stringContaining('23:30'),
    ])
  })
})
