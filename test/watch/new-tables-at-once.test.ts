// A table the diner has not been told about goes out at once: a request that alerted a minute ago
// alerts a new table within one poll, through the real availability object and the sandbox
// platform. The per-request gap (10 minutes by default) only keeps the same table from being told
// twice: a table that goes and comes back within it is not told again; after it, it is.
import { describe, expect, it } from 'vitest'
import { control, createRequest, notificationsOf, poll, setUp, toldEarlier, VENUE } from './world'

const MINUTE = 60_000

describe('new tables at once, repeats held by the gap', () => {
  it('alerts a new table within one poll of an alert a minute ago, and the same table not twice within the gap', async () => {
    const { token, userId, day, spec } = await setUp()
    const sandbox = control()
    const table = (time: string) => ({ venueId: VENUE, day, time, seating: 'Bar', partyMin: 1, partyMax: 4 })
    await sandbox.addSlot(table('23:00'))
    const request = await createRequest(token, spec({ title: 'Late supper' }))
    await poll(day)
    expect((await notificationsOf(userId)).map((n) => n.title)).toHaveLength(1)
    await toldEarlier(request.id, MINUTE) // that alert went out a minute ago

    // A new table at the same restaurant and date: told by the very next poll, alone.
    await sandbox.addSlot(table('23:15'))
    await poll(day)
    const second = await notificationsOf(userId)
    expect(second).toHaveLength(2)
    expect(second[1]?.body).toMatch(/^1 table /)
    expect(second[1]?.body).toContain('11:15 PM')
    expect(second[1]?.body).not.toContain('11:00 PM')

    // 23:00 is taken and comes back within the gap: not told again; nor is anything still open.
    await sandbox.removeSlot(table('23:00'))
    await poll(day)
    await sandbox.addSlot(table('23:00'))
    await poll(day)
    await poll(day)
    expect(await notificationsOf(userId)).toHaveLength(2)

    // Once the gap has passed since its alert, a table that comes back is news again.
    await toldEarlier(request.id, 11 * MINUTE)
    await sandbox.removeSlot(table('23:00'))
    await poll(day)
    await sandbox.addSlot(table('23:00'))
    await poll(day)
    const third = await notificationsOf(userId)
    expect(third).toHaveLength(3)
    expect(third[2]?.body).toMatch(/^1 table /)
    expect(third[2]?.body).toContain('11:00 PM')
  })
})
