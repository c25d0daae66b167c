// Crash safety in workerd: the worker is restarted between steps (objects evicted: memory gone,
// storage and alarms kept) and in the middle of a step (every object aborted while a venue-day's
// poll, or the booking it set off, waits on the platform). An alarm whose run died is delivered
// again, as the runtime retries failed alarms. Nothing may be lost (alarms, alerts, bookings) or
// done twice.
import { abortAllDurableObjects, env, evictDurableObject, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { approveRequest } from '../../src/request-use-cases/approve'
import { requestObject } from '../../src/runtime/deps'
import { alarmOf } from '../helpers/requests'
import {
  availabilityOf,
  control,
  createRequest,
  flushAlerts,
  ledgerOf,
  nextInterval,
  notificationsOf,
  poll,
  runAlarm,
  runPoll,
  setUp,
  VENUE,
  view,
} from '../watch/world'

const table = (day: string, time = '23:15') => ({ venueId: VENUE, day, time, seating: 'Dining Room', partyMin: 2, partyMax: 4 })

async function restart(id: string): Promise<void> {
  await evictDurableObject(requestObject(env, id)).catch(() => undefined) // not running: nothing to evict
}

/** Waits (polling the sandbox) until the platform has seen `count` calls of the endpoint. */
async function platformSaw(endpoint: 'find' | 'book' | 'reservations', count: number): Promise<void> {
  for (let i = 0; i < 250; i++) {
    if (((await control().calls())[endpoint] ?? 0) >= count) return
    await new Promise((done) => setTimeout(done, 20))
  }
  throw new Error(`the platform never saw ${count} ${endpoint} calls`)
}

/** Runs the venue-day's poll and kills every object while it (or a booking it set off) waits on `endpoint`. */
async function crashDuring(day: string, endpoint: 'find' | 'book' | 'reservations', count: number): Promise<void> {
  await nextInterval(day)
  await runInDurableObject(availabilityOf(day), (_instance, state) => state.storage.setAlarm(Date.now()))
  const running = runDurableObjectAlarm(availabilityOf(day)).then(
    () => 'finished',
    () => 'died',
  )
  await platformSaw(endpoint, count)
  await abortAllDurableObjects()
  expect(await running).toBe('died')
}

async function approved(token: string, userId: string, body: Record<string, unknown>) {
  const created = await createRequest(token, { mode: 'auto_book', ...body })
  await approveRequest({ env }, { requestId: created.id, revision: created.revision, userId })
  return created
}

describe('restarts while polling', () => {
  it('keeps its alarm across a restart between polls, and the next poll alerts once', async () => {
    const { token, userId, day, spec } = await setUp()
    const request = await createRequest(token, spec())
    await runPoll(day)
    await restart(request.id)
    expect(await alarmOf(request.id)).not.toBeNull()

    await control().addSlot(table(day))
    await poll(day)
    await abortAllDurableObjects()
    await runPoll(day)
    await runAlarm(request.id)
    await flushAlerts(request.id)

    expect((await notificationsOf(userId)).map((n) => n.kind)).toEqual(['table_found'])
    expect((await view(token, request.id)).status).toBe('active')
    expect(await alarmOf(request.id)).not.toBeNull()
  })

  it('finds the table once when the worker dies in the middle of a poll and the alarm is retried', async () => {
    const { token, userId, day, spec } = await setUp()
    await control().addSlot(table(day))
    const request = await createRequest(token, spec())
    await runPoll(day)
    await control().injectFault({ endpoint: 'find', kind: 'timeout', hangMs: 2_000 })
    const before = (await control().calls()).find ?? 0

    await crashDuring(day, 'find', before + 1)
    await runPoll(day) // the runtime's retry
    await poll(day)
    await flushAlerts(request.id)

    expect((await notificationsOf(userId)).map((n) => n.kind)).toEqual(['table_found'])
    expect((await view(token, request.id)).status).toBe('active')
    expect(await alarmOf(request.id)).not.toBeNull()
  })
})

describe('restarts while booking and verifying', () => {
  it('confirms exactly one booking when the worker dies after the platform booked but before it answered', async () => {
    const { token, userId, day, spec, platformEmail } = await setUp()
    await control().addSlot(table(day))
    await control().addSlot(table(day, '23:30'))
    await control().injectFault({ endpoint: 'book', kind: 'book_lost', hangMs: 3_000 }) // booked, then silence
    const request = await approved(token, userId, spec())

    await crashDuring(day, 'book', 1)
    // The attempt was saved before the book call, with the alarm that verifies it.
    expect(await alarmOf(request.id)).not.toBeNull()
    await runAlarm(request.id)
    await poll(day)
    await runAlarm(request.id)

    const seen = await view(token, request.id)
    expect(seen.status).toBe('confirmed')
    expect(seen.reservations).toEqual([expect.objectContaining({ verified: true, time: '23:15' })])
    expect(await ledgerOf(platformEmail)).toHaveLength(1)
    expect((await control().calls()).book).toBe(1)
    expect((await notificationsOf(userId)).map((n) => n.kind)).toEqual(['approval_needed', 'booked'])
  })

  it('never books again when the worker dies after saving the attempt and the booking never landed', async () => {
    const { token, userId, day, spec, platformEmail } = await setUp()
    await control().addSlot(table(day))
    await control().injectFault({ endpoint: 'book', kind: 'timeout', hangMs: 3_000 }) // nothing booked
    const request = await approved(token, userId, spec())

    await crashDuring(day, 'book', 1)
    await runAlarm(request.id)
    expect((await view(token, request.id)).status).toBe('awaiting_verification')
    await verificationWindowPasses(request.id)
    await runAlarm(request.id)
    await poll(day)
    await runAlarm(request.id)

    const seen = await view(token, request.id)
    expect(seen.status).toBe('active')
    expect(seen.reservations).toEqual([])
    expect((await control().calls()).book).toBe(1)
    expect(await ledgerOf(platformEmail)).toEqual([])
    expect((await notificationsOf(userId)).map((n) => n.kind)).toContain('booking_unverified')
  })

  it('finishes a verification the worker died in the middle of, recording one reservation and one alert', async () => {
    const { token, userId, day, spec, platformEmail } = await setUp()
    await control().addSlot(table(day))
    await control().injectFault({ endpoint: 'book', kind: 'book_lost' })
    await control().injectFault({ endpoint: 'reservations', kind: 'pass' }) // the listing before booking
    await control().injectFault({ endpoint: 'reservations', kind: 'timeout', hangMs: 3_000 }) // verification hangs
    const request = await approved(token, userId, spec())

    await crashDuring(day, 'reservations', 2)
    await runAlarm(request.id)
    await runAlarm(request.id)

    const seen = await view(token, request.id)
    expect(seen.status).toBe('confirmed')
    expect(seen.reservations).toHaveLength(1)
    expect(await ledgerOf(platformEmail)).toHaveLength(1)
    expect((await notificationsOf(userId)).map((n) => n.kind)).toEqual(['approval_needed', 'booked'])
  })

  it('reaches the same single confirmed booking when restarted between every step', async () => {
    const { token, userId, day, spec, platformEmail } = await setUp()
    await control().addSlot(table(day))
    await control().injectFault({ endpoint: 'book', kind: 'book_lost' })
    await control().injectFault({ endpoint: 'reservations', kind: 'pass' })
    await control().injectFault({ endpoint: 'reservations', kind: '503', count: 3 })
    const request = await createRequest(token, { ...spec(), mode: 'auto_book' })
    await restart(request.id)
    await approveRequest({ env }, { requestId: request.id, revision: request.revision, userId })
    await restart(request.id)
    await poll(day) // books; the answer and the first verification are lost
    expect((await view(token, request.id)).status).toBe('awaiting_verification')
    await abortAllDurableObjects()
    expect(await alarmOf(request.id)).not.toBeNull()
    await runAlarm(request.id)
    await restart(request.id)
    await runAlarm(request.id)

    expect((await view(token, request.id)).status).toBe('confirmed')
    expect(await ledgerOf(platformEmail)).toHaveLength(1)
    expect((await control().calls()).book).toBe(1)
  })
})

/** Time passes for the request's verification window (10 minutes) without waiting for it. */
async function verificationWindowPasses(id: string): Promise<void> {
  await runInDurableObject(requestObject(env, id), async (_instance, state) => {
    const stored = await state.storage.get<{ attempt: { verifyUntil: number } | null }>('state')
    if (!stored?.attempt) throw new Error('no attempt is being verified')
    await state.storage.put('state', { ...stored, attempt: { ...stored.attempt, verifyUntil: Date.now() - 1 } })
  })
}
