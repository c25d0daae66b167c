// A booking that landed while the platform account could not be read, past its verification
// window: the request stops booking, keeps looking at the account, and records the reservation
// for itself once the account shows it (docs/decisions/booking.md, "Verification").
import { env, runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { platformFromEnv } from '../../src/platform/from-env'
import { requestObject } from '../../src/runtime/deps'
import { asUser } from '../helpers/credentials'
import { control, createApproved, ledgerOf, notificationsOf, poll, runAlarm, setUp, VENUE, view } from './world'

/** The attempt's verification window is over: it closes at the next look. */
async function windowPassed(id: string): Promise<void> {
  await runInDurableObject(requestObject(env, id), async (_instance, state) => {
    const s = await state.storage.get<{ attempt: { verifyUntil: number } | null }>('state')
    if (!s?.attempt) throw new Error('no attempt being verified')
    await state.storage.put('state', { ...s, attempt: { ...s.attempt, verifyUntil: Date.now() - 1 } })
  })
}

/** The reservation list answers again: the failures still queued go to calls that cannot read any account. */
async function listAnswersAgain(queuedAfter: number, failures: number): Promise<void> {
  const platform = platformFromEnv(env, { retryDelaysMs: [] })
  while (((await control().calls()).reservations ?? 0) < queuedAfter + failures) {
    await platform.listReservations(asUser('not-a-real-token'))
  }
}

describe('a booking whose window closed while the account could not be read', () => {
  it('is recorded for its request, which is confirmed, once the account shows it', async () => {
    const { token, userId, day, spec, platformEmail } = await setUp()
    await control().addSlot({ venueId: VENUE, day, time: '23:15', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
    // Booked, but the answer is lost; the list before booking answers, every later one fails.
    await control().injectFault({ endpoint: 'book', kind: 'book_lost', count: 1 })
    const before = (await control().calls()).reservations ?? 0
    const FAILURES = 40
    await control().injectFault({ endpoint: 'reservations', kind: 'pass', count: 1 })
    await control().injectFault({ endpoint: 'reservations', kind: '503', count: FAILURES })
    const request = await createApproved(token, userId, spec())

    await poll(day)
    expect((await view(token, request.id)).status).toBe('awaiting_verification')
    await windowPassed(request.id)
    await runAlarm(request.id)
    const givenUp = await view(token, request.id)
    expect(givenUp.status).toBe('active')
    expect(givenUp.reservations).toEqual([])
    expect(await ledgerOf(platformEmail)).toHaveLength(1)

    await listAnswersAgain(before + 1, FAILURES)
    await runAlarm(request.id)

    const seen = await view(token, request.id)
    expect(seen.status).toBe('confirmed')
    expect(seen.reservations).toEqual([expect.objectContaining({ verified: true, time: '23:15' })])
    expect((await notificationsOf(userId)).map((n) => n.kind)).toContain('booked')
    expect((await control().calls()).book).toBe(1)
  })
})
