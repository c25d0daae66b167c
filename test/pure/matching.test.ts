// Which slots a request wants, and which subscribers an availability poll calls.
import { describe, expect, it } from 'vitest'
import { deliveriesFor, newSlots } from '../../src/watching/deliveries'
import { filterOf, judgeSlot, slotKey } from '../../src/watching/match'
import type { Subscriber } from '../../src/watching/subscribers'
import { DAY, slotAt, specOf, VENUE } from './fixtures'

describe('matching a slot', () => {
  const spec = specOf({ seating: 'indoor' })

  it.each([
    ['a slot inside the window for the party, indoors', slotAt('19:00'), { matches: true }],
    ['the window ends inclusive', slotAt('21:00'), { matches: true }],
    ['another venue', slotAt('19:30', { venueId: 1 }), { matches: false, reason: 'venue' }],
    ['another date', slotAt('19:30', { day: '2026-12-06' }), { matches: false, reason: 'date' }],
    ['before the window', slotAt('18:59'), { matches: false, reason: 'window' }],
    ['a table too small', slotAt('19:30', { partyMax: 1 }), { matches: false, reason: 'party' }],
    ['outdoors for an indoor request', slotAt('19:30', { seatingType: 'Patio' }), { matches: false, reason: 'seating' }],
    ['seating the venue names vaguely', slotAt('19:30', { seatingType: 'Little Wayla' }), { matches: false, reason: 'seating' }],
  ])('judges %s', (_what, slot, verdict) => {
    expect(judgeSlot(spec, slot)).toEqual(verdict)
  })

  it('keys a table by venue, day, time and seating', () => {
    expect(slotKey(slotAt('19:30'))).toBe(`${VENUE}|${DAY}|19:30|Dining Room`)
  })
})

describe('what an availability poll delivers', () => {
  const sub = (requestId: string, primed: boolean, over = {}): Subscriber => ({
    requestId,
    filter: filterOf(specOf(over)),
    plan: { phases: [{ until: null, intervalMs: 60_000 }], releases: [] },
    until: Number.MAX_SAFE_INTEGER,
    primed,
    version: 1,
  })
  const before = slotAt('19:00')
  const fresh = slotAt('20:00')

  it('finds the slots that were not there at the last poll', () => {
    expect(newSlots([slotKey(before)], [before, fresh])).toEqual([fresh])
  })

  it('calls only subscribers with a matching new slot, and gives a new subscriber every matching slot once', () => {
    const deliveries = deliveriesFor(
      [sub('sr_primed', true), sub('sr_new', false), sub('sr_late', true, { earliest_time: '22:00', latest_time: '23:00' })],
      [before, fresh],
      [fresh],
    )
    expect(deliveries.map((d) => [d.subscriber.requestId, d.slots.map((s) => s.time)])).toEqual([
      ['sr_primed', ['20:00']],
      ['sr_new', ['19:00', '20:00']],
    ])
  })
})
