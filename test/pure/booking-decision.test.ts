// The auto-book decision on the find slot's terms, cross-checked with the details reply, for the
// evidence fixtures and for every way a field can be missing or the sources can disagree.
import { describe, expect, it } from 'vitest'
import { instantOf } from '../../src/lib/zoned-time'
import type { BookingDetails, Slot, SlotTerms } from '../../src/platform/api'
import { bookingDetailsOf, slotsOf } from '../../src/platform/mapping'
import { detailsAnswer, findAnswer } from '../../src/platform/wire'
import { chargesWhy, decideBooking, moneyTermsOf, statedMoneyIn } from '../../src/request-aggregate/booking/booking-decision'
import { RequestSpec } from '../../src/request-use-cases/schemas'
import { detailsCardHold, detailsFree } from '../platform/fixtures/book'
import { FIND_DAY, FIND_VENUE, findEvent, findMixed } from '../platform/fixtures/find'
import {
  detailsLargeParty,
  detailsWithFees,
  detailsWithoutAmounts,
  detailsWithServiceFee,
  findLargeParty,
  findTextFee,
} from '../platform/fixtures/money'

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
    expect(decide(free, '18:00', details(detailsFree))).toEqual({
      kind: 'book',
      feePerPerson: 0,
      freeCancellationUntil: null,
      needsCard: false,
    })
  })

  it('books a card hold within the limits, free until secs_cancel_cut_off before the table', () => {
    const got = decide(cardHold, '19:30', details(detailsCardHold))
    expect(got).toEqual({ kind: 'book', feePerPerson: 25, freeCancellationUntil: Date.parse('2026-12-02T00:30:00Z'), needsCard: true })
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
      reason: 'the cancellation fee is $25 per person, above the $20 limit',
    })
  })

  it('alerts when free cancellation ends sooner than fee_review_hours', () => {
    const late = Date.parse('2026-12-01T23:00:00Z') // 1.5 h before the free-cancellation deadline
    expect(decide(cardHold, '19:30', details(detailsCardHold), spec(), late)).toEqual({
      kind: 'alert',
      reason: 'the free-cancellation deadline must be at least 3 hours after booking; it is 1 h away',
    })
  })

  it('reads time_cancel_cut_off as a time on the service day, then subtracts secs_cancel_cut_off', () => {
    const terms = { ...cardHold, timeCancelCutOff: '17:00:00', secsCancelCutOff: 86_400 }
    const deadline = instantOf('2026-12-02', '17:00', ZONE)
    const agreeing = { ...details(detailsCardHold), freeCancellationUntil: deadline }
    expect(decide(terms, '19:30', agreeing)).toEqual({ kind: 'book', feePerPerson: 25, freeCancellationUntil: deadline, needsCard: true })
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

  it('accepts the fee stated for the whole party as agreement (per person is UNCERTAIN, resy-api.md, "Corrections and additions")', () => {
    expect(decide(cardHold, '19:30', { ...holdDetails, cancellationFee: 50 })).toMatchObject({ kind: 'book', feePerPerson: 25 })
  })
})

describe('money stated outside the find slot (resy-api.md, "Corrections (third review)"): alert in plain words, never book', () => {
  it('refuses when the details charge anything at booking, naming each charge', () => {
    expect(decide(free, '18:00', details(detailsWithFees))).toEqual({
      kind: 'alert',
      reason: 'booking would charge a Resy fee of $5, tax of $0.45, $5.45 in total at once',
    })
    expect(decide(free, '18:00', details(detailsWithServiceFee))).toEqual({
      kind: 'alert',
      reason: 'booking would charge a service fee of $12, $12 in total at once',
    })
  })

  it('refuses when the details do not state the amounts at all', () => {
    expect(decide(free, '18:00', details(detailsWithoutAmounts))).toEqual({
      kind: 'alert',
      reason: 'the booking details do not say what booking charges',
    })
    expect(decide(cardHold, '19:30', { ...details(detailsCardHold), amounts: null })).toMatchObject({ kind: 'alert' })
  })

  it('refuses a table whose notes state a per-person reservation fee, quoting the sentence', () => {
    const terms = slotAt(findTextFee, '18:30').terms
    expect(decide(terms, '18:30', details(detailsFree))).toEqual({
      kind: 'alert',
      reason: 'the restaurant\'s notes mention money: "Please note: a $25 per person reservation fee applies to all bookings."',
    })
  })

  it.each([
    ['A $25 per person reservation fee applies.', true],
    ['Cancellations within 24 hours are charged 50 dollars.', true],
    ['A deposit is required for parties of 8.', true],
    ['This dinner is prepaid.', true],
    ['Pre-payment? No: we ask guests to pre-pay for the tasting.', true],
    ['A 20% service charge is added to every check.', true],
    ['Reservations open 14 days in advance at 9:00 AM. We hold tables for 15 minutes.', false],
    ['Our coffee program is feeling free and feeble.', false],
  ])('reads money in the notes: %s → %s', (text, states) => {
    expect(statedMoneyIn(text) !== null).toBe(states)
  })

  it('refuses a party at or above large_party_size_cancel when the large-party fee is above the limit', () => {
    const terms = slotAt(findLargeParty, '19:30').terms
    expect(terms.template).toMatchObject({ largePartySize: 6, largePartyFee: 100 })
    expect(decide(terms, '19:30', details(detailsLargeParty), spec({ party_size: 6 }))).toEqual({
      kind: 'alert',
      reason: 'for parties of 6 or more the cancellation fee is $100 per person, above the $25 limit',
    })
  })

  it("books a smaller party at the table's own fee, and a large party within a limit that covers its fee", () => {
    const terms = slotAt(findLargeParty, '19:30').terms
    expect(decide(terms, '19:30', details(detailsCardHold), spec({ party_size: 5 }))).toMatchObject({ kind: 'book', feePerPerson: 25 })
    const generous = spec({ party_size: 6, max_cancellation_fee_per_person: 100 })
    expect(decide(terms, '19:30', details(detailsLargeParty), generous)).toMatchObject({ kind: 'book', feePerPerson: 100, needsCard: true })
  })

  it('refuses a large party when the template states the size but no fee', () => {
    const terms = slotAt(findLargeParty, '19:30').terms
    const noFee = { ...terms, template: terms.template ? { ...terms.template, largePartyFee: null } : null }
    expect(decide(noFee, '19:30', details(detailsLargeParty), spec({ party_size: 6 }))).toEqual({
      kind: 'alert',
      reason: 'for parties of 6 or more the platform states a large-party policy but no fee',
    })
  })

  it('sends the card only to a table that holds one', () => {
    expect(decide(free, '18:00', details(detailsFree))).toMatchObject({ kind: 'book', needsCard: false })
    expect(decide(cardHold, '19:30', details(detailsCardHold))).toMatchObject({ kind: 'book', needsCard: true })
  })

  it('reads zero amounts as no charge', () => {
    expect(chargesWhy({ reservationCharge: 0, resyFee: 0, serviceFee: 0, tax: 0, total: 0 })).toBeNull()
    expect(chargesWhy({ reservationCharge: null, resyFee: null, serviceFee: null, tax: null, total: null })).toBeNull()
  })
})
