// The auto-book fee rules, the dinner already held, and which reservation is ours.
import { describe, expect, it } from 'vitest'
import { answered, bookingRefusal, ourReservation, tableHeldForDinner } from '../../src/requests/watch/rules'
import { attemptOf, DAY, details, NOW, specOf, VENUE } from './fixtures'

const HOUR = 3_600_000
const startsAt = Date.parse(`${DAY}T19:30:00-05:00`)
const spec = specOf({ max_cancellation_fee_per_person: 25, fee_review_hours: 3 })

describe('the fee rules', () => {
  it.each([
    ['a deposit', details({ deposit: true }), 'it needs a deposit'],
    ['prepayment', details({ prepaid: true }), 'it is prepaid'],
    ['a ticket', details({ ticketed: true }), 'it is a ticketed experience'],
    [
      'a card held with no stated fee',
      details({ cancellationFeePerPerson: null }),
      'the platform holds a card but states no cancellation fee',
    ],
    [
      'a fee above the limit',
      details({ cancellationFeePerPerson: 26, freeCancellationUntil: NOW + 48 * HOUR }),
      'cancellation fee 26 > 25 per person',
    ],
    [
      'a fee with no free-cancellation deadline',
      details({ cancellationFeePerPerson: 10 }),
      'the platform states no free-cancellation deadline',
    ],
    [
      'free cancellation ending too soon',
      details({ cancellationFeePerPerson: 10, freeCancellationUntil: NOW + 2 * HOUR }),
      'free cancellation ends in 2 h, less than 3 h away',
    ],
  ])('refuses %s', (_what, answer, why) => {
    expect(bookingRefusal(answer, spec, startsAt, NOW)).toBe(why)
  })

  it.each([
    ['no fee at all (free until the table’s own time)', details()],
    [
      'a fee at the limit with free cancellation far enough away',
      details({ cancellationFeePerPerson: 25, freeCancellationUntil: NOW + 3 * HOUR }),
    ],
  ])('allows %s', (_what, answer) => {
    expect(bookingRefusal(answer, spec, startsAt, NOW)).toBeNull()
  })
})

describe('the account', () => {
  const held = (time: string, reservationId = '1', over = {}) => ({
    reservationId,
    venueId: VENUE,
    day: DAY,
    time,
    partySize: 2,
    seatingType: 'Dining Room',
    ...over,
  })

  it('finds a table already held for this dinner: a requested date, inside the window', () => {
    expect(tableHeldForDinner(spec, [held('18:00'), held('20:15', '2')])?.reservationId).toBe('2')
    expect(tableHeldForDinner(spec, [held('20:15', '3', { day: '2026-12-06' })])).toBeUndefined()
  })

  it('takes as ours only the attempted table, not one held before booking or recorded for another request', () => {
    const attempt = attemptOf({ time: '19:30', preexisting: ['1'] })
    expect(ourReservation(attempt, [held('19:30', '1')], new Set())).toBeUndefined()
    expect(ourReservation(attempt, [held('19:30', '2')], new Set(['2']))).toBeUndefined()
    expect(ourReservation(attempt, [held('19:30', '3', { partySize: 4 }), held('19:30', '4')], new Set())?.reservationId).toBe('4')
  })

  it('keeps the book answer on the attempt; a rejected token counts as refused before anything happened', () => {
    expect(answered(attemptOf(), { kind: 'booked', reservationId: '8' })).toMatchObject({ outcome: 'booked', platformReservationId: '8' })
    expect(answered(attemptOf(), { kind: 'reauth' })).toMatchObject({ outcome: 'refused', refusal: 'reauth' })
    expect(answered(attemptOf(), { kind: 'unknown', detail: 'timeout' }).outcome).toBe('unknown')
  })
})
