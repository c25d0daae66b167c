// The auto-book decision on the find slot's terms, cross-checked with the details reply, for the
// evidence fixtures and for every way a field can be missing or the sources can disagree.
import { describe, expect, it } from 'vitest'
import { instantOf } from '../../src/lib/zoned-time'
import type { BookingDetails, Slot, SlotTerms } from '../../src/platform/api'
import { bookingDetailsOf, slotsOf } from '../../src/platform/mapping'
import { detailsAnswer, findAnswer } from '../../src/platform/wire'
import { RequestSpec } from '../../src/requests/schemas'
import { decideBooking, moneyTermsOf } from '../../src/requests/watch/booking-decision'
import { detailsCardHold, detailsFree } from '../platform/fixtures/book'
import { FIND_DAY, FIND_VENUE, findEvent, findMixed } from '../platform/fixtures/find'

const ZONE = 'America/New_York'
const NOW = Date.parse('2026-11-20T15:00:00Z')

const spec = (overrides: Partial<RequestSpec> = {}): RequestSpec =>
  RequestSpec.parse({
    venue_ids: [FIND_VENUE],
    dates: [FIND_DAY],
    earliest_time: '17:00',
    latest_time: '22:00',
    party_size: 2,
    timezone: ZONE,
    mode: 'auto_book',
    max_cancellation_fee_per_person: 25,
    fee_review_hours: 3,
    expires_at: '2026-12-03T22:00:00-05:00',
    ...overrides,
  })

const found = (reply: unknown): Slot[] => slotsOf(findAnswer.parse(reply), FIND_VENUE, FIND_DAY)
const slotAt = (reply: unknown, time: string): Slot => {
  const slot = found(reply).find((s) => s.time === time)
  if (!slot) throw new Error(`no slot at ${time}`)
  return slot
}
const at = (time: string) => ({ day: FIND_DAY, startsAt: instantOf(FIND_DAY, time, ZONE), timeZone: ZONE })
const details = (reply: unknown): BookingDetails => bookingDetailsOf(detailsAnswer.parse(reply))

function decide(terms: SlotTerms, time: string, d: BookingDetails, s: RequestSpec = spec(), now = NOW) {
  return decideBooking({ terms, details: d, spec: s, at: at(time), now })
}

const free = slotAt(findMixed, '18:00').terms
const cardHold = slotAt(findMixed, '19:30').terms

describe('the booking decision on the evidence fixtures', () => {
  it('books a table that holds no card when the details charge nothing and state no fee', () => {
    expect(decide(free, '18:00', details(detailsFree))).toEqual({ kind: 'book', feePerPerson: 0, freeCancellationUntil: null })
  })

  it('books a card hold within the limits, free until secs_cancel_cut_off before the table', () => {
    const got = decide(cardHold, '19:30', details(detailsCardHold))
    expect(got).toEqual({ kind: 'book', feePerPerson: 25, freeCancellationUntil: Date.parse('2026-12-02T00:30:00Z') })
  })

  it('never books a deposit or prepaid table, nor a ticketed event, whatever the details say', () => {
    expect(decide(slotAt(findMixed, '20:15').terms, '20:15', details(detailsFree))).toEqual({
      kind: 'alert',
      reason: 'it needs a deposit or prepayment ($50)',
    })
    expect(decide(slotAt(findEvent, '19:00').terms, '19:00', details(detailsFree))).toEqual({
      kind: 'alert',
      reason: 'it is a ticketed experience ($150)',
    })
  })
})

describe('limits', () => {
  it('compares the whole cancellation fee with the per-person limit, never divided by the party', () => {
    expect(decide(cardHold, '19:30', details(detailsCardHold), spec({ max_cancellation_fee_per_person: 20, party_size: 2 }))).toEqual({
      kind: 'alert',
      reason: 'cancellation fee 25 > 20 per person',
    })
  })

  it('alerts when free cancellation ends sooner than fee_review_hours', () => {
    const late = Date.parse('2026-12-01T23:00:00Z') // 1.5 h before the free-cancellation deadline
    expect(decide(cardHold, '19:30', details(detailsCardHold), spec(), late)).toEqual({
      kind: 'alert',
      reason: 'free cancellation ends in 1 h, less than 3 h away',
    })
  })

  it('reads time_cancel_cut_off as a time on the service day, then subtracts secs_cancel_cut_off', () => {
    const terms = { ...cardHold, timeCancelCutOff: '17:00:00', secsCancelCutOff: 86_400 }
    const deadline = instantOf('2026-12-02', '17:00', ZONE)
    const agreeing = { ...details(detailsCardHold), freeCancellationUntil: deadline }
    expect(decide(terms, '19:30', agreeing)).toEqual({ kind: 'book', feePerPerson: 25, freeCancellationUntil: deadline })
  })
})

describe('a field the decision needs is missing or unknown: alert, never book', () => {
  it.each<[string, Partial<SlotTerms>, RegExp]>([
    ['no payment object', { paymentStated: false }, /stated no payment terms/],
    ['no template', { template: null }, /template is missing/],
    [
      'is_event not stated',
      { template: { ...cardHold.template, isEvent: null } as SlotTerms['template'] },
      /whether this is a ticketed event/,
    ],
    ['is_paid not stated', { isPaid: null }, /whether this table needs a card/],
    [
      'a card hold without a fee',
      { cancellationFee: null, template: { ...cardHold.template, cancellationFee: null } as SlotTerms['template'] },
      /holds a card but states no cancellation fee/,
    ],
    ['a card hold without a cut-off', { secsCancelCutOff: null }, /no free-cancellation deadline/],
    ['an unreadable cut-off time', { timeCancelCutOff: '5 PM' }, /cut-off time "5 PM" cannot be read/],
  ])('%s', (_name, change, why) => {
    const got = decide({ ...cardHold, ...change }, '19:30', details(detailsCardHold))
    expect(got.kind).toBe('alert')
    if (got.kind === 'alert') expect(got.reason).toMatch(why)
  })

  it('a fee on a table that holds no card, and a template that contradicts its slot', () => {
    expect(decide({ ...free, cancellationFee: 10 }, '18:00', details(detailsFree))).toMatchObject({ kind: 'alert' })
    const contradicted = { ...cardHold, template: { ...(cardHold.template as NonNullable<SlotTerms['template']>), isPaid: false } }
    expect(decide(contradicted, '19:30', details(detailsCardHold))).toEqual({
      kind: 'alert',
      reason: 'the table and its template state different payment terms',
    })
  })

  it('reads no kind of charge from the details alone: a free find slot with details silent is free', () => {
    expect(moneyTermsOf(free, at('18:00'))).toEqual({ ok: true, value: { kind: 'no_card' } })
  })
})

describe('the details reply disagrees with the find slot: alert, never book', () => {
  const holdDetails = details(detailsCardHold)

  it.each<[string, Slot['terms'], string, BookingDetails, RegExp]>([
    [
      'money taken at booking for a no-card table',
      free,
      '18:00',
      { ...details(detailsFree), chargedAtBooking: 40 },
      /charge \$40 at booking/,
    ],
    ['a fee for a no-card table', free, '18:00', { ...details(detailsFree), cancellationFee: 25 }, /state a \$25 cancellation fee/],
    ['another fee', cardHold, '19:30', { ...holdDetails, cancellationFee: 40 }, /\$40 cancellation fee, the table \$25/],
    ['no fee for a card hold', cardHold, '19:30', { ...holdDetails, cancellationFee: null }, /do not confirm the cancellation fee/],
    [
      'another deadline',
      cardHold,
      '19:30',
      { ...holdDetails, freeCancellationUntil: Date.parse('2026-12-03T00:30:00Z') },
      /another free-cancellation deadline/,
    ],
  ])('%s', (_name, terms, time, d, why) => {
    const got = decide(terms, time, d)
    expect(got.kind).toBe('alert')
    if (got.kind === 'alert') expect(got.reason).toMatch(/^the platform's answers disagree: /)
    if (got.kind === 'alert') expect(got.reason).toMatch(why)
  })

  it('accepts the fee stated for the whole party as agreement (per person is UNCERTAIN, §10)', () => {
    expect(decide(cardHold, '19:30', { ...holdDetails, cancellationFee: 50 })).toMatchObject({ kind: 'book', feePerPerson: 25 })
  })
})
