// Card-on-file venues, against the sandbox platform: Cinder Club answers a book
// call without a card with a bare 402, even for a free table. Booked once more with the card only
// when the terms a card on file answers for are stated and within the request's limits (here the
// template states a $0 cancellation fee for parties of 2 and more); otherwise the diner is told
// why. A book call is never repeated after an unclear answer.
import { describe, expect, it } from 'vitest'
import type { Policy } from '../../sandbox/control-client'
import { findRestaurants } from '../../src/venues/restaurants'
import { control, createApproved, flushAlerts, ledgerOf, notificationsOf, poll, runAlarm, setUp, view } from './world'

async function cardOnFileVenue(deps: Parameters<typeof findRestaurants>[0]) {
  const venue = (await control().venues()).find((v) => v.bookingRule === 'card_on_file')
  if (!venue) throw new Error('the sandbox has no card-on-file venue')
  await findRestaurants(deps, venue.name)
  return venue
}

/** An approved auto_book request for one table at the card-on-file venue, with these terms. */
async function tableThere(policy: Policy) {
  const world = await setUp()
  const venue = await cardOnFileVenue(world.deps)
  await control().addSlot({ venueId: venue.id, day: world.day, time: '23:15', seating: 'Dining Room', partyMin: 1, partyMax: 6, policy })
  const request = await createApproved(
    world.token,
    world.userId,
    world.spec({ venue_ids: [venue.id], max_cancellation_fee_per_person: 25 }),
  )
  return { ...world, venue, request }
}

describe('a venue that wants the card on file', () => {
  it('is booked once more, with the card, when the terms state what a card on file answers for: one booking, verified', async () => {
    const { token, day, venue, request, platformEmail } = await tableThere({ kind: 'free', largeParty: { size: 2, feePerPerson: 0 } })

    await poll(day, 2, venue.id)
    await runAlarm(request.id)

    const seen = await view(token, request.id)
    expect(seen.status).toBe('confirmed')
    expect(seen.reservations).toEqual([expect.objectContaining({ verified: true, time: '23:15' })])
    expect(seen.trace.map((t) => t.message).join('\n')).toMatch(/wants a card on file: booking Cinder Club, .* once more, with the card/)
    // Two book calls: the one without the card (refused: a bare 402), the one with it. One booking.
    expect((await control().calls()).book).toBe(2)
    expect(await ledgerOf(platformEmail)).toEqual([expect.objectContaining({ time: '23:15', paymentMethodId: expect.any(Number) })])
  })

  it('is not sent the card when the terms do not state a cancellation fee: the diner is told why, and it is not tried again', async () => {
    const { token, userId, day, venue, request, platformEmail } = await tableThere({ kind: 'free' })

    await poll(day, 2, venue.id)
    await runAlarm(request.id)
    await poll(day, 2, venue.id)
    await flushAlerts(request.id)

    const seen = await view(token, request.id)
    expect(seen.status).toBe('active')
    expect((await control().calls()).book).toBe(1)
    expect(await ledgerOf(platformEmail)).toEqual([])
    const told = (await notificationsOf(userId)).find((n) => n.kind === 'booking_skipped')
    expect(told?.body).toMatch(
      /not booked automatically: the restaurant wants a card on file to book, and the platform states no cancellation fee for this table, so what a card on file could be charged is unknown/,
    )
  })

  it('is never booked again after an unclear answer: it is verified, as any booking is', async () => {
    const { token, day, venue, request, platformEmail } = await tableThere({ kind: 'free', largeParty: { size: 2, feePerPerson: 0 } })
    await control().injectFault({ endpoint: 'book', kind: '503', count: 1 })

    await poll(day, 2, venue.id)
    await runAlarm(request.id)

    expect((await control().calls()).book).toBe(1)
    expect((await view(token, request.id)).status).toBe('awaiting_verification')
    expect(await ledgerOf(platformEmail)).toEqual([])
  })
})
