// The dinner already held, the book call's answer, and which reservation is ours (the money
// rules are in booking-decision.test.ts).
import { describe, expect, it } from 'vitest'
import { answered, ourReservation, tableHeldForDinner } from '../../src/request-aggregate/booking/booking-rules'
import { attemptOf, DAY, specOf, VENUE } from './fixtures'

const spec = specOf({ max_cancellation_fee_per_person: 25, fee_review_hours: 3 })

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
