import { env, runInDurableObject, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { connectPlatform } from '../../src/executors/connection'
import { requestObject } from '../../src/runtime/deps'
import {
  answerTakenNow,
  control,
  createApproved,
  createRequest,
  flushAlerts,
  ledgerOf,
  notificationsOf,
  poll,
  runAlarm,
  runPoll,
  setUp,
  VENUE,
  view,
} from './world'

/**
 * Time passes for a booking being verified: its earlier reads of the account and its next look
 * move `ms` into the past (the attempt itself, and its window, stay as they are).
 */
async function readsEarlier(id: string, ms: number): Promise<void> {
  await runInDurableObject(requestObject(env, id), async (_instance, state) => {
    const s = await state.storage.get<{ attempt: { checkAt: number; absentReads: { first: number; last: number } | null } | null }>('state')
    const attempt = s?.attempt
    if (!attempt) throw new Error('no attempt to age')
    const reads = attempt.absentReads
      ? { ...attempt.absentReads, first: attempt.absentReads.first - ms, last: attempt.absentReads.last - ms }
      : null
    await state.storage.put('state', { ...s, attempt: { ...attempt, absentReads: reads, checkAt: attempt.checkAt - ms } })
  })
}

/** The venue-day is polled and the request's alarm runs: one booking, verified, and the user told. */
async function booksOnce(day: string, who: { token: string; userId: string; platformEmail: string }, requestId: string) {
  await poll(day)
  await runPoll(day)
  await runAlarm(requestId)
  expect((await view(who.token, requestId)).status).toBe('confirmed')
  expect(await ledgerOf(who.platformEmail)).toHaveLength(1)
  // The approval notice, then the booking: never a reconnect.
  expect((await notificationsOf(who.userId)).map((n) => n.kind).sort()).toEqual(['approval_needed', 'booked'])
}

describe('auto_book', () => {
  it('books exactly one matching slot and ends confirmed with a verified reservation', async () => {
    const { token, userId, day, spec, platformEmail } = await setUp()
    await control().addSlot({ venueId: VENUE, day, time: '23:15', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
    await control().addSlot({ venueId: VENUE, day, time: '23:30', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
    const request = await createApproved(token, userId, spec())

    await poll(day)
    await runPoll(day)
    await runAlarm(request.id)

    const seen = await view(token, request.id)
    expect(seen.status).toBe('confirmed')
    expect(seen.reservations).toEqual([expect.objectContaining({ verified: true, time: '23:15' })])
    expect(Number.isInteger(seen.reservations[0]?.reservation_id)).toBe(true)
    expect(await ledgerOf(platformEmail)).toHaveLength(1)
    // The approval notice came first (the request waited for the user), then the booking.
    expect((await notificationsOf(userId)).map((n) => n.kind).sort()).toEqual(['approval_needed', 'booked'])

    // The list shows the reservation on its own request only (one query serves the whole page).
    const other = await createRequest(
      token,
      spec({ mode: 'alert_only', earliest_time: '18:00', latest_time: '18:30', expires_at: `${day}T17:00:00-05:00` }),
    )
    const listed = await SELF.fetch('http://localhost/api/v1/requests', { headers: { Authorization: `Bearer ${token}` } })
    const { requests } = await listed.json<{ requests: { id: string; reservations: { time: string }[] }[] }>()
    expect(requests.map((r) => [r.id, r.reservations.map((x) => x.time)])).toEqual([
      [other.id, []],
      [request.id, ['23:15']],
    ])
  })

  it('never books a request that was not approved', async () => {
    const { token, day, spec, platformEmail } = await setUp()
    await control().addSlot({ venueId: VENUE, day, time: '23:15', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
    const request = await createRequest(token, spec({ mode: 'auto_book' }))
    expect(request.status).toBe('needs_approval')
    await poll(day)
    await runAlarm(request.id)
    expect((await view(token, request.id)).status).toBe('needs_approval')
    expect(await ledgerOf(platformEmail)).toEqual([])
  })

  it.each([
    [{ kind: 'fee', feePerPerson: 50, cutoffHours: 24 }, /the cancellation fee is \$50 per person, above the \$25 limit/],
    [
      { kind: 'fee', feePerPerson: 10, cutoffHours: 24 * 30 },
      /the free-cancellation deadline must be at least 3 hours after booking; it has passed/,
    ],
    [{ kind: 'deposit', amountPerPerson: 20, cutoffHours: 24 }, /needs a deposit or prepayment \(\$20\)/],
    [{ kind: 'prepaid', amountPerPerson: 150 }, /needs a deposit or prepayment \(\$150\)/],
    [{ kind: 'ticketed', amountPerPerson: 95 }, /ticketed experience \(\$95\)/],
    // A free table whose find reply leaves a field out or contradicts itself (resy-api.md, "Corrections and additions"): never booked.
    [{ kind: 'free', gap: 'payment_missing' }, /stated no payment terms for this table/],
    [{ kind: 'free', gap: 'template_missing' }, /template is missing from the platform's answer/],
    [{ kind: 'free', gap: 'is_event_missing' }, /did not say whether this is a ticketed event/],
    [{ kind: 'free', gap: 'template_disagrees' }, /the table and its template state different payment terms/],
    // Money stated outside the slot's payment: the details' amounts, the notes, large parties.
    [
      { kind: 'free', charges: { resyFee: 5, tax: 0.45 } },
      /booking would charge a Resy fee of \$5, tax of \$0\.45, \$5\.45 in total at once/,
    ],
    [{ kind: 'free', charges: { serviceFee: 12 } }, /booking would charge a service fee of \$12, \$12 in total at once/],
    [{ kind: 'free', gap: 'amounts_missing' }, /the booking details do not say what booking charges/],
    [
      { kind: 'free', textFeePerPerson: 25 },
      /the restaurant's notes mention money: "Please note: a \$25 per person reservation fee applies/,
    ],
    [
      { kind: 'fee', feePerPerson: 10, cutoffHours: 24, largeParty: { size: 2, feePerPerson: 50 } },
      /for parties of 2 or more the cancellation fee is \$50 per person, above the \$25 limit/,
    ],
  ] as const)('refuses a slot with %o, traces why and alerts instead', async (policy, why) => {
    const { token, userId, day, spec, platformEmail } = await setUp()
    await control().addSlot({ venueId: VENUE, day, time: '23:15', seating: 'Dining Room', partyMin: 2, partyMax: 4, policy })
    const request = await createApproved(token, userId, spec({ max_cancellation_fee_per_person: 25 }))

    await poll(day)
    await poll(day)
    await flushAlerts(request.id)

    const seen = await view(token, request.id)
    expect(seen.status).toBe('active')
    expect(seen.trace.map((t) => t.message).join('\n')).toMatch(why)
    expect(await ledgerOf(platformEmail)).toEqual([])
    expect((await notificationsOf(userId)).map((n) => n.kind).sort()).toEqual(['approval_needed', 'booking_skipped'])
  })

  it('alerts instead of booking when the booking details disagree with the find slot, and keeps watching', async () => {
    const { token, userId, day, spec, platformEmail } = await setUp()
    const key = { venueId: VENUE, day, time: '23:15', seating: 'Dining Room' }
    await control().addSlot({ ...key, partyMin: 2, partyMax: 4, policy: { kind: 'fee', feePerPerson: 10, cutoffHours: 24 } })
    // The venue-day's shared find answer is taken now, and the fee changes before the auto_book
    // request, subscribing meanwhile, is told of it.
    await answerTakenNow(token, spec, day)
    expect(await control().setPolicy(key, { kind: 'fee', feePerPerson: 15, cutoffHours: 24 })).toBe(true)
    const request = await createApproved(token, userId, spec({ max_cancellation_fee_per_person: 25 }))

    await runPoll(day)
    await flushAlerts(request.id)

    const seen = await view(token, request.id)
    expect(seen.status).toBe('active')
    expect(seen.trace.map((t) => t.message).join('\n')).toMatch(
      /Not booked: Pomelo Garden, .*: the platform's answers disagree: the booking details state a \$15 cancellation fee, the table \$10/,
    )
    expect(await ledgerOf(platformEmail)).toEqual([])
    expect((await notificationsOf(userId)).map((n) => n.kind).sort()).toEqual(['approval_needed', 'booking_skipped'])
  })

  it('tells the user in the alert which term stopped the booking, in plain words', async () => {
    const { token, userId, day, spec } = await setUp()
    const policy = { kind: 'free', textFeePerPerson: 25 } as const
    await control().addSlot({ venueId: VENUE, day, time: '23:15', seating: 'Dining Room', partyMin: 2, partyMax: 4, policy })
    const request = await createApproved(token, userId, spec())
    await poll(day)
    await flushAlerts(request.id)
    const skipped = (await notificationsOf(userId)).find((n) => n.kind === 'booking_skipped')
    expect(skipped?.body).toMatch(
      /not booked automatically: the restaurant's notes mention money: "Please note: a \$25 per person reservation fee/,
    )
  })

  it('sends the card only to a table that holds one: none for a free table, the card for a card hold (resy-api.md, "Corrections (third review)")', async () => {
    const free = await setUp()
    await control().addSlot({ venueId: VENUE, day: free.day, time: '23:15', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
    const first = await createApproved(free.token, free.userId, free.spec())
    await poll(free.day)
    expect((await view(free.token, first.id)).status).toBe('confirmed')
    expect(await ledgerOf(free.platformEmail)).toEqual([expect.objectContaining({ time: '23:15', paymentMethodId: null })])

    const hold = await setUp()
    const policy = { kind: 'fee', feePerPerson: 10, cutoffHours: 24 } as const
    await control().addSlot({ venueId: VENUE, day: hold.day, time: '23:30', seating: 'Bar', partyMin: 2, partyMax: 4, policy })
    const second = await createApproved(hold.token, hold.userId, hold.spec({ earliest_time: '23:30', max_cancellation_fee_per_person: 10 }))
    await poll(hold.day)
    expect((await view(hold.token, second.id)).status).toBe('confirmed')
    expect(await ledgerOf(hold.platformEmail)).toEqual([expect.objectContaining({ time: '23:30', paymentMethodId: expect.any(Number) })])
  })

  it('goes back to watching when the platform said "no longer available" (410) and reads over ten minutes show nothing', async () => {
    const { token, userId, day, spec, platformEmail } = await setUp()
    await control().addSlot({ venueId: VENUE, day, time: '23:15', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
    await control().injectFault({ endpoint: 'book', kind: 'gone_410', count: 1 })
    const request = await createApproved(token, userId, spec())

    await poll(day) // books: 410, and the first read of the account shows nothing
    expect((await view(token, request.id)).status).toBe('awaiting_verification')
    // Ten minutes pass between reads (the stored reads and the next look are moved back).
    await readsEarlier(request.id, 6 * 60_000)
    await runAlarm(request.id)
    expect((await view(token, request.id)).status).toBe('awaiting_verification')
    await readsEarlier(request.id, 6 * 60_000)
    await runAlarm(request.id)

    const seen = await view(token, request.id)
    expect(seen.status).toBe('active')
    expect(seen.trace.map((t) => t.message).join('\n')).toMatch(
      /The platform said the table was no longer available \(HTTP 410\) and 3 reads of the account over 12 min show no such reservation: nothing was booked; watching again\./,
    )
    expect(await ledgerOf(platformEmail)).toEqual([])
    expect((await control().calls()).book).toBe(1)

    // Watching again: a new table is booked (the one said to be gone is not tried again).
    await control().addSlot({ venueId: VENUE, day, time: '23:30', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
    await poll(day)
    await runPoll(day)
    await runAlarm(request.id)
    expect((await view(token, request.id)).status).toBe('confirmed')
    expect(await ledgerOf(platformEmail)).toEqual([expect.objectContaining({ time: '23:30' })])
  })

  it('books a slot whose fee is within the limit and whose free cancellation is far enough away', async () => {
    const { token, userId, day, spec, platformEmail } = await setUp()
    await control().addSlot({
      venueId: VENUE,
      day,
      time: '23:15',
      seating: 'Dining Room',
      partyMin: 2,
      partyMax: 4,
      policy: { kind: 'fee', feePerPerson: 25, cutoffHours: 24 },
    })
    const request = await createApproved(token, userId, spec({ max_cancellation_fee_per_person: 25, fee_review_hours: 3 }))
    await poll(day)
    expect((await view(token, request.id)).status).toBe('confirmed')
    expect(await ledgerOf(platformEmail)).toHaveLength(1)
  })

  it('books with a renewed token when the stored one expired while watching, without asking to reconnect', async () => {
    const { deps, token, userId, day, spec, platformEmail } = await setUp()
    await control().setTokenLifetimes({ authSeconds: 1, refreshSeconds: 3600 })
    await connectPlatform(deps, userId, { email: platformEmail, password: 'secret', acknowledgedRisk: true })
    await scheduler.wait(1100) // the auth token has expired
    await control().addSlot({ venueId: VENUE, day, time: '23:15', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
    const request = await createApproved(token, userId, spec())

    await booksOnce(day, { token, userId, platformEmail }, request.id)
    expect((await control().calls()).refresh).toBeGreaterThanOrEqual(1)
  })

  it('renews the token and books when the details call says the session is invalid (500)', async () => {
    const { token, userId, day, spec, platformEmail } = await setUp()
    await control().addSlot({ venueId: VENUE, day, time: '23:15', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
    await control().injectFault({ endpoint: 'details', kind: 'session_500' })
    const request = await createApproved(token, userId, spec())

    await booksOnce(day, { token, userId, platformEmail }, request.id)
  })

  it('confirms one booking when the booking went through but its answer was lost', async () => {
    const { token, userId, day, spec, platformEmail } = await setUp()
    await control().addSlot({ venueId: VENUE, day, time: '23:15', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
    await control().injectFault({ endpoint: 'book', kind: 'book_lost', count: 3 })
    const request = await createApproved(token, userId, spec())

    await poll(day)
    await runAlarm(request.id)
    await poll(day)

    const seen = await view(token, request.id)
    expect(seen.status).toBe('confirmed')
    expect(seen.reservations).toEqual([expect.objectContaining({ verified: true })])
    expect(await ledgerOf(platformEmail)).toHaveLength(1)
  })

  it('stays awaiting_verification while the outcome is unknown and never books again meanwhile', async () => {
    const { token, userId, day, spec, platformEmail } = await setUp()
    await control().addSlot({ venueId: VENUE, day, time: '23:15', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
    await control().addSlot({ venueId: VENUE, day, time: '23:30', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
    await control().injectFault({ endpoint: 'book', kind: '500', count: 1 })
    // The listing before booking goes through; the ones that verify it fail.
    await control().injectFault({ endpoint: 'reservations', kind: 'pass', count: 1 })
    await control().injectFault({ endpoint: 'reservations', kind: '503', count: 30 })
    const request = await createApproved(token, userId, spec())

    await poll(day)
    await runAlarm(request.id)
    await poll(day)

    const seen = await view(token, request.id)
    expect(seen.status).toBe('awaiting_verification')
    expect(seen.reservations).toEqual([])
    expect((await control().calls()).book).toBe(1)
    expect(await ledgerOf(platformEmail)).toEqual([])
  })

  it('returns to active when the platform refuses the booking and the account shows nothing', async () => {
    const { token, userId, day, spec, platformEmail } = await setUp()
    const key = { venueId: VENUE, day, time: '23:15', seating: 'Dining Room' }
    await control().addSlot({ ...key, partyMin: 2, partyMax: 4 })
    // The shared find answer still shows the table; someone else takes it before the booking.
    await answerTakenNow(token, spec, day)
    await control().removeSlot(key)
    const request = await createApproved(token, userId, spec())

    await runPoll(day)

    const seen = await view(token, request.id)
    expect(seen.status).toBe('active')
    expect(seen.trace.map((t) => t.message).join('\n')).toMatch(/refused the booking \(slot_gone\)/)
    expect(await ledgerOf(platformEmail)).toEqual([])
  })

  it('records a booking that lands after the user stopped the request, and stays stopped', async () => {
    const { token, userId, day, spec, platformEmail } = await setUp()
    await control().addSlot({ venueId: VENUE, day, time: '23:15', seating: 'Dining Room', partyMin: 2, partyMax: 4 })
    await control().injectFault({ endpoint: 'book', kind: 'book_lost', count: 1 })
    // The listing before booking goes through; the ones that verify it fail for a while.
    await control().injectFault({ endpoint: 'reservations', kind: 'pass', count: 1 })
    await control().injectFault({ endpoint: 'reservations', kind: '503', count: 3 })
    const request = await createApproved(token, userId, spec())
    await poll(day)
    expect((await view(token, request.id)).status).toBe('awaiting_verification')

    const stopped = await requestObject(env, request.id).stop(Date.now())
    expect(stopped.ok && stopped.state.status).toBe('stopped')
    await runAlarm(request.id)
    await runAlarm(request.id)

    const seen = await view(token, request.id)
    expect(seen.status).toBe('stopped')
    expect(seen.reservations).toEqual([expect.objectContaining({ verified: true })])
    expect(await ledgerOf(platformEmail)).toHaveLength(1)
  })
})
