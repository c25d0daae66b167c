// The fifth review's fields, read by the client's mapping (pure): venue flags in their order, a
// reopening date still to come, one slot per config token, cardholder-only slots left out, and a
// paid add-on turned into an alert by the money decision whatever the fee fields and the limit say
// (docs/platform.md, "Venues and search", "Availability", "Money terms").
import { describe, expect, it } from 'vitest'
import { bookingBlockerOf, slotsOf } from '../../../src/platform/mapping'
import { findAnswer } from '../../../src/platform/wire'
import { decideBooking } from '../../../src/request-aggregate/booking/booking-decision'
import { DAY, details, NOW, specOf, termsOf } from '../fixtures'

const TODAY = '2026-12-07'

describe('venue flags', () => {
  it('name the first reason in a fixed order; a past or unreadable reopening and an empty source name mean nothing', () => {
    expect(bookingBlockerOf({ gda_concierge_booking: true, requires_reservation_transfers: true }, TODAY)).toBe('concierge')
    expect(bookingBlockerOf({ requires_reservation_transfers: true, source: { name: 'OpenTable' } }, TODAY)).toBe('transfers')
    expect(bookingBlockerOf({ source: { name: 'OpenTable' } }, TODAY)).toBe('other_platform')
    expect(bookingBlockerOf({ source: { name: ' ' } }, TODAY)).toBeNull()
    expect(bookingBlockerOf({ reopen: { date: '2026-12-08' } }, TODAY)).toBe('closed')
    expect(bookingBlockerOf({ reopen: { date: '2026-12-07' } }, TODAY)).toBeNull()
    expect(bookingBlockerOf({ reopen: { date: '2025-03-01' } }, TODAY)).toBeNull()
    expect(bookingBlockerOf({ reopen: { date: 'soon' } }, TODAY)).toBeNull()
    expect(bookingBlockerOf({ feature_recaptcha: true, gda_concierge_booking: true }, TODAY)).toBe('recaptcha')
  })
})

const payment = { is_paid: false, deposit_fee: null, cancellation_fee: null, secs_cancel_cut_off: null }
let configId = 0
const entry = (time: string, token: string, more: Record<string, unknown> = {}) => ({
  config: { id: ++configId, token, type: 'Dining Room', is_visible: false },
  date: { start: `${DAY} ${time}:00` },
  size: { min: 1, max: 4 },
  template: { id: 1 },
  payment,
  ...more,
})
const find = (slots: unknown[]) =>
  findAnswer.parse({ results: { venues: [{ venue: { id: { resy: 60105 } }, templates: { 1: { is_event: false } }, slots }] } })

describe('slots', () => {
  it('one per config token: a mark on any entry holds for the table; cardholder-only tables are left out', () => {
    const slots = slotsOf(
      find([
        entry('19:00', 'rgs://a'),
        entry('19:00', 'rgs://a', { payment: { ...payment, is_add_on_required: true } }),
        entry('19:30', 'rgs://b'),
        entry('19:30', 'rgs://b', { exclusive: { is_eligible: false } }),
        entry('20:00', 'rgs://c', { is_global_dining_access: true }),
        entry('20:30', 'rgs://d', { exclusive: { is_eligible: true, is_global_dining_access: true } }),
        entry('21:00', 'rgs://e', { exclusive: { is_eligible: true, is_global_dining_access: false } }),
      ]),
      60105,
      DAY,
    )
    expect(slots.map((s) => [s.configId, s.terms.addOnRequired])).toEqual([
      ['rgs://a', true],
      ['rgs://e', null],
    ])
  })
})

describe('a paid add-on', () => {
  it('is never booked automatically, even with every fee field null and a $0 limit', () => {
    const decided = decideBooking({
      terms: termsOf({ addOnRequired: true }),
      details: details(),
      spec: specOf({ max_cancellation_fee_per_person: 0 }),
      at: { day: DAY, startsAt: Date.parse(`${DAY}T23:00:00Z`), timeZone: 'America/New_York' },
      now: NOW,
    })
    expect(decided).toEqual({ kind: 'alert', reason: 'it comes with a paid add-on, which Tablewatch treats as a prepayment' })
  })
})
