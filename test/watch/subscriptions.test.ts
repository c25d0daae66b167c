// The availability objects push to the requests: one platform call per venue-day and interval,
// subscriptions that follow the request's life and survive restarts, idle polls that write only
// their alarm, and a last_checked_at that a restart does not lose.
import { abortAllDurableObjects, env, evictDurableObject, runInDurableObject, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { addDays } from '../../src/lib/zoned-time'
import { requestObject } from '../../src/runtime/deps'
import { TELL_AFTER_FAILURES } from '../../src/watching/platform-failures'
import { alarmOf } from '../helpers/requests'
import {
  availabilityOf,
  control,
  createRequest,
  flushAlerts,
  nextInterval,
  notificationsOf,
  poll,
  runAlarm,
  runPoll,
  setUp,
  VENUE,
  view,
} from './world'

const table = (day: string, time = '23:15') => ({ venueId: VENUE, day, time, seating: 'Dining Room', partyMin: 2, partyMax: 4 })

async function subscribersOf(day: string, partySize = 2): Promise<string[]> {
  return runInDurableObject(availabilityOf(day, partySize), (_instance, state) =>
    state.storage.sql
      .exec<{ request_id: string }>('SELECT request_id FROM subscribers ORDER BY request_id')
      .toArray()
      .map((r) => r.request_id),
  )
}

async function update(token: string, id: string, revision: number, spec: Record<string, unknown>) {
  const res = await SELF.fetch(`http://localhost/api/v1/requests/${id}`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
    body: JSON.stringify({ revision, spec }),
  })
  expect(res.status).toBe(200)
}

describe('availability pushed to the requests', () => {
  it('asks the platform once per interval for 20 requests on one venue-day', async () => {
    const { token, day, spec } = await setUp()
    const finds = async () => (await control().calls()).find ?? 0
    const before = await finds() // adding the venue to the catalog read its notes from a find
    await Promise.all(Array.from({ length: 20 }, (_, i) => createRequest(token, spec({ title: `dinner ${i}` }))))
    await runPoll(day)
    await runPoll(day)
    expect((await finds()) - before).toBe(1)
    expect(await subscribersOf(day)).toHaveLength(20)
    await poll(day)
    expect((await finds()) - before).toBe(2)
  })

  it('gives an idle request object no alarm but its expiry, and never wakes it for an idle poll', async () => {
    const { token, day, spec } = await setUp()
    const request = await createRequest(token, spec())
    await poll(day)
    const before = await requestObject(env, request.id).read()
    await poll(day)
    expect(await requestObject(env, request.id).read()).toEqual(before)
    expect(await alarmOf(request.id)).toBe(before?.expiresAt)
  })

  it('writes only its alarm on an idle poll, and keeps last_checked_at true across a restart', async () => {
    const { token, day, spec } = await setUp()
    const request = await createRequest(token, spec())
    await poll(day)
    await nextInterval(day)
    const changes = () =>
      runInDurableObject(
        availabilityOf(day),
        (_instance, state) => state.storage.sql.exec<{ n: number }>('SELECT total_changes() AS n').one().n,
      )
    const before = await changes()
    await runPoll(day) // idle: nothing changed on the platform
    // The runtime clears the alarm that fired and the poll sets the next one: no other row.
    expect((await changes()) - before).toBe(2)
    const checked = (await view(token, request.id)).last_checked_at
    expect(checked).not.toBeNull()

    await evictDurableObject(availabilityOf(day))
    await evictDurableObject(requestObject(env, request.id))
    expect((await view(token, request.id)).last_checked_at).toBe(checked)
  })

  it('keeps its subscriptions across a restart of every object', async () => {
    const { token, userId, day, spec } = await setUp()
    const request = await createRequest(token, spec())
    await runPoll(day)
    await abortAllDurableObjects()
    await control().addSlot(table(day))
    await poll(day)
    await flushAlerts(request.id)
    expect((await notificationsOf(userId)).map((n) => n.kind)).toEqual(['table_found'])
  })

  it('unsubscribes a request that is stopped, and one updated to other dates', async () => {
    const { token, day, spec } = await setUp()
    const stopped = await createRequest(token, spec())
    const moved = await createRequest(token, spec({ title: 'moved' }))
    await runPoll(day)
    expect(await subscribersOf(day)).toEqual([moved.id, stopped.id].sort())

    await requestObject(env, stopped.id).stop(Date.now())
    const later = addDays(day, 1)
    await update(token, moved.id, moved.revision, spec({ title: 'moved', dates: [later], expires_at: `${later}T22:00:00-05:00` }))

    expect(await subscribersOf(day)).toEqual([])
    expect(await subscribersOf(later)).toEqual([moved.id])
  })

  it('drops a subscriber whose request does not exist', async () => {
    const { token, userId, day, spec } = await setUp()
    const request = await createRequest(token, spec())
    const filter = { earliest_time: '23:00', latest_time: '23:45', party_size: 2, seating: 'any' } as const
    const ghost = { requestId: 'sr_ghost', filter, plan: { phases: [{ until: null, intervalMs: 60_000 }], releases: [] } }
    await availabilityOf(day).subscribe(
      { venueDay: { venueId: VENUE, day, partySize: 2 }, venueName: 'Pomelo Garden', venuePage: null },
      { ...ghost, until: Date.now() + 3_600_000 },
    )
    await control().addSlot(table(day))
    await poll(day)
    expect(await subscribersOf(day)).not.toContain('sr_ghost')
    await flushAlerts(request.id)
    expect(await notificationsOf(userId)).toHaveLength(1)
  })

  it('has no effect when its alarm is delivered twice, or the request’s', async () => {
    const { token, userId, day, spec } = await setUp()
    const before = (await control().calls()).find ?? 0
    const request = await createRequest(token, spec())
    await control().addSlot(table(day))
    await control().addSlot(table(day, '23:30'))
    await poll(day)
    await runPoll(day)
    await runPoll(day)
    await runAlarm(request.id)
    await flushAlerts(request.id)
    await runAlarm(request.id)
    await flushAlerts(request.id)
    // Both tables of the poll in one alert, however often the alarms run.
    expect((await notificationsOf(userId)).map((n) => n.kind)).toEqual(['table_found'])
    expect(((await control().calls()).find ?? 0) - before).toBe(1)
  })

  it('does not ask a blocked platform again for a new subscriber before the back-off ends', async () => {
    const { token, day, spec } = await setUp()
    await control().block({ forMs: 600_000, style: 'cloudfront' })
    await createRequest(token, spec())
    await poll(day)
    await createRequest(token, spec({ title: 'a second dinner' }))
    const next = await runInDurableObject(availabilityOf(day), (_instance, state) => state.storage.getAlarm())
    expect((next ?? 0) - Date.now()).toBeGreaterThan(15 * 60_000)
    await control().block({ forMs: 0 })
  })

  it('backs off when the platform fails, and tells the watching requests why once it persists', async () => {
    const { token, day, spec } = await setUp()
    // Three polls in a row fail (the client tries each read three times).
    await control().injectFault({ endpoint: 'find', kind: '503', count: 3 * TELL_AFTER_FAILURES })
    const request = await createRequest(token, spec())
    await poll(day)
    const next = await runInDurableObject(availabilityOf(day), (_instance, state) => state.storage.getAlarm())
    expect((next ?? 0) - Date.now()).toBeGreaterThanOrEqual(100_000)
    for (let more = 1; more < TELL_AFTER_FAILURES; more++) await poll(day)
    // The day as diners read it everywhere ("Tue, Dec 1"), in the restaurant's calendar.
    const dayWords = new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', {
      timeZone: 'UTC',
      weekday: 'short',
      month: 'short',
      day: 'numeric',
    })
    const failing = (await view(token, request.id)).trace.map((t) => t.message)
    expect(failing).toContain(`Could not check Pomelo Garden on ${dayWords}: the platform did not answer.`)

    await poll(day)
    expect((await view(token, request.id)).trace.at(-1)?.message).toBe(`Checks of Pomelo Garden on ${dayWords} work again.`)
    await nextInterval(day)
  })
})
