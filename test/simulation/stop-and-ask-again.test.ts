// Found by the booking-safety simulation: a request stopped while its booking is being verified
// keeps verifying, and the contract's way to change an auto_book dinner is "stop the first, ask
// again". The second request must neither book a second table for the same dinner nor have its
// table claimed by the first.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { approveRequest } from '../../src/request-use-cases/approve'
import { requestObject } from '../../src/runtime/deps'
import { control, createRequest, poll, runAlarm, setUp, VENUE, view } from '../watch/world'

const table = (day: string, time: string) => ({ venueId: VENUE, day, time, seating: 'Dining Room', partyMin: 2, partyMax: 4 })

async function stopThenAskAgain(token: string, userId: string, day: string, body: Record<string, unknown>) {
  const first = await createRequest(token, { mode: 'auto_book', ...body })
  await approveRequest({ env }, { requestId: first.id, revision: first.revision, userId })
  await poll(day)
  expect((await view(token, first.id)).status).toBe('awaiting_verification')
  const stopped = await requestObject(env, first.id).stop(Date.now())
  expect(stopped.ok && stopped.state.status).toBe('stopped')
  const second = await createRequest(token, { mode: 'auto_book', ...body })
  await approveRequest({ env }, { requestId: second.id, revision: second.revision, userId })
  return { first, second }
}

describe('stop during verification, then ask again for the same dinner', () => {
  it('does not book a second table when the first booking landed but is not verified yet', async () => {
    const { token, userId, day, spec, platformEmail } = await setUp()
    await control().addSlot(table(day, '23:15'))
    await control().addSlot(table(day, '23:30'))
    await control().injectFault({ endpoint: 'book', kind: 'book_lost', count: 1 }) // booked, answer lost
    await control().injectFault({ endpoint: 'reservations', kind: 'pass', count: 1 }) // the listing before booking
    await control().injectFault({ endpoint: 'reservations', kind: '503', count: 3 }) // the first verification (3 tries)
    const { first, second } = await stopThenAskAgain(token, userId, day, spec())

    await poll(day)
    await runAlarm(first.id)

    const ledger = (await control().ledger()).filter((b) => b.email === platformEmail)
    expect(ledger).toHaveLength(1)
    expect((await view(token, first.id)).reservations).toEqual([expect.objectContaining({ verified: true, time: '23:15' })])
    expect((await view(token, second.id)).status).toBe('active')
  })

  it("never claims the second request's table as the first one's when the first booking did not land", async () => {
    const { token, userId, day, spec, platformEmail } = await setUp()
    await control().addSlot(table(day, '23:15'))
    await control().injectFault({ endpoint: 'book', kind: '500', count: 1 }) // nothing booked, outcome unknown
    const { first, second } = await stopThenAskAgain(token, userId, day, spec())

    await poll(day) // the second books 23:15 and verifies it
    await runAlarm(first.id) // still verifying its own attempt at 23:15

    const ledger = (await control().ledger()).filter((b) => b.email === platformEmail)
    expect(ledger).toHaveLength(1)
    const secondView = await view(token, second.id)
    expect(secondView.status).toBe('confirmed')
    expect(secondView.reservations).toEqual([expect.objectContaining({ verified: true, time: '23:15' })])
    expect((await view(token, first.id)).reservations).toEqual([])
  })
})
