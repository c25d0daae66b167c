// Pure rules of the client: zone names, release times in free text, and booking-detail flags.
import { describe, expect, it } from 'vitest'
import { bookingDetailsOf } from '../../../src/platform/mapping'
import { releaseRuleOf, releaseTimeIn } from '../../../src/platform/release'
import { ianaTimeZone } from '../../../src/platform/time-zone'
import { detailsAnswer } from '../../../src/platform/wire'

describe('ianaTimeZone', () => {
  it.each([
    ['EST5EDT', 'America/New_York'],
    ['CST6CDT', 'America/Chicago'],
    ['MST7MDT', 'America/Denver'],
    ['MST', 'America/Phoenix'],
    ['PST8PDT', 'America/Los_Angeles'],
    ['US/Eastern', 'America/New_York'],
    ['America/Denver', 'America/Denver'],
    ['Europe/Paris', 'Europe/Paris'],
  ])('maps %s to %s', (given, iana) => expect(ianaTimeZone(given)).toBe(iana))

  it('refuses names that are not zones', () => {
    expect(ianaTimeZone('Mars/Olympus_Mons')).toBeNull()
    expect(ianaTimeZone('Eastern')).toBeNull()
  })
})

describe('releaseTimeIn', () => {
  it.each([
    ['Reservations open 14 days in advance at 9:00 AM local time.', '09:00'],
    ['New tables are released 30 days ahead at 10 AM.', '10:00'],
    ['Reservations open 14 days in advance at 10:00 a.m. Parties of 6+ call us.', '10:00'],
    ['Tables drop 28 days in advance at midnight.', '00:00'],
    ['Seats become bookable 21 days out at noon.', '12:00'],
    ['Experiences are released 14 days in advance at 12:00 PM.', '12:00'],
    ['Bookings open 7 days in advance at 7:30 p.m. ET', '19:30'],
    ['We hold tables 15 minutes. Reservations open 30 days in advance at 18:00.', '18:00'],
  ])('reads "%s" as %s', (text, time) => expect(releaseTimeIn(text)).toBe(time))

  it.each([
    'We hold tables for 15 minutes. Our kitchen closes at 10 PM.',
    'Walk-ins available at 5 PM at the bar.',
    'Reservations open 30 days in advance.',
    'Reservations open 14 days in advance at 9.',
  ])('finds no release time in "%s"', (text) => expect(releaseTimeIn(text)).toBeNull())
})

describe('releaseRuleOf', () => {
  it('combines lead days from /2/config with the time from the notes', () => {
    expect(releaseRuleOf(14, ['Nice place.', 'Tables open 14 days in advance at 9:00 AM.'])).toEqual({ daysInAdvance: 14, time: '09:00' })
  })

  it('has no rule without a stated time or without lead days', () => {
    expect(releaseRuleOf(14, ['Nice place.'])).toBeNull()
    expect(releaseRuleOf(null, ['Tables open 14 days in advance at 9:00 AM.'])).toBeNull()
  })
})

describe('bookingDetailsOf', () => {
  const details = (payment: unknown, cancellation: unknown = null) =>
    bookingDetailsOf(detailsAnswer.parse({ book_token: { value: 'bt' }, payment, cancellation }))

  it('reads a reply that states no fee and charges nothing', () => {
    expect(details({ amounts: { reservation_charge: 0, total: 0 } })).toEqual({
      bookToken: 'bt',
      cancellationFee: null,
      freeCancellationUntil: null,
      amounts: { reservationCharge: 0, resyFee: null, serviceFee: null, tax: null, total: 0 },
    })
    expect(details(null).amounts).toBeNull()
    expect(details({ config: { type: 'free' } }).amounts).toBeNull()
  })

  it('reads the fee and its cut-off, else the refund cut-off', () => {
    expect(details(null, { fee: { amount: 25, date_cut_off: '2030-01-01T00:00:00Z' } })).toMatchObject({
      cancellationFee: 25,
      freeCancellationUntil: Date.parse('2030-01-01T00:00:00Z'),
    })
    expect(details(null, { fee: { amount: 25 }, refund: { date_cut_off: '2030-01-02T00:00:00Z' } }).freeCancellationUntil).toBe(
      Date.parse('2030-01-02T00:00:00Z'),
    )
  })

  it('reads every amount the reply states ([idx 53104099941])', () => {
    const amounts = { reservation_charge: 80, subtotal: 80, resy_fee: 2.5, service_fee: 1, tax: 3, total: 86.5 }
    expect(details({ amounts }).amounts).toEqual({ reservationCharge: 80, resyFee: 2.5, serviceFee: 1, tax: 3, total: 86.5 })
  })

  it('never reads a kind of charge from payment.config.type or is_paid (no public source, resy-api.md, "Corrections and additions")', () => {
    const got = details({ config: { type: 'free' }, is_paid: false, deposit_fee: null, amounts: { total: 120 } })
    expect(got.amounts?.total).toBe(120)
    expect(Object.keys(got).sort()).toEqual(['amounts', 'bookToken', 'cancellationFee', 'freeCancellationUntil'])
  })
})
