// Every field rule of the contract's request-spec table, at its boundaries. A rule broken
// answers the 422 validation body on preview and on create alike, and create stores nothing.
import { beforeAll, describe, expect, it } from 'vitest'
import { expectDetail } from '../helpers/api'
import { createUserWithToken } from '../helpers/auth'
import { countRequests, create, preview, type Spec, validSpec } from '../helpers/requests'
import { dateIn, datesIn, NEW_YORK } from '../helpers/time'
import { seedVenues, VENUES } from '../helpers/venues'

beforeAll(seedVenues)

const nyIds = (n: number) => VENUES.ny.slice(0, n).map((v) => v.venue_id)
const validDate = () => dateIn(NEW_YORK, 7)

interface BrokenRule {
  rule: string
  spec: () => Spec
  loc: (string | number)[]
}

const BROKEN: BrokenRule[] = [
  { rule: 'a title of 121 characters', spec: () => validSpec({ title: 'x'.repeat(121) }), loc: ['body', 'title'] },
  { rule: 'a title that is not a string', spec: () => validSpec({ title: 42 }), loc: ['body', 'title'] },
  { rule: 'no venue_ids', spec: () => validSpec({ venue_ids: undefined }), loc: ['body', 'venue_ids'] },
  { rule: 'an empty venue_ids', spec: () => validSpec({ venue_ids: [] }), loc: ['body', 'venue_ids'] },
  { rule: 'nine venue_ids', spec: () => validSpec({ venue_ids: nyIds(9) }), loc: ['body', 'venue_ids'] },
  { rule: 'a venue id of 0', spec: () => validSpec({ venue_ids: [0] }), loc: ['body', 'venue_ids', 0] },
  { rule: 'a negative venue id', spec: () => validSpec({ venue_ids: [nyIds(1)[0], -3] }), loc: ['body', 'venue_ids', 1] },
  { rule: 'a fractional venue id', spec: () => validSpec({ venue_ids: [900001.5] }), loc: ['body', 'venue_ids', 0] },
  { rule: 'a venue id given as a string', spec: () => validSpec({ venue_ids: ['900001'] }), loc: ['body', 'venue_ids', 0] },
  { rule: 'no dates', spec: () => validSpec({ dates: undefined }), loc: ['body', 'dates'] },
  { rule: 'an empty dates list', spec: () => validSpec({ dates: [] }), loc: ['body', 'dates'] },
  { rule: '43 dates', spec: () => validSpec({ dates: datesIn(NEW_YORK, 43) }), loc: ['body', 'dates'] },
  { rule: 'a date with slashes', spec: () => validSpec({ dates: [validDate().replaceAll('-', '/')] }), loc: ['body', 'dates', 0] },
  { rule: 'a second date without zero padding', spec: () => validSpec({ dates: [validDate(), '2026-1-5'] }), loc: ['body', 'dates', 1] },
  {
    rule: 'a date range instead of a date',
    spec: () => validSpec({ dates: [`${validDate()}..${dateIn(NEW_YORK, 9)}`] }),
    loc: ['body', 'dates', 0],
  },
  { rule: 'a weekday rule instead of a date', spec: () => validSpec({ dates: ['every friday'] }), loc: ['body', 'dates', 0] },
  {
    rule: 'an impossible calendar date',
    spec: () => validSpec({ dates: [`${Number(validDate().slice(0, 4)) + 1}-02-30`] }),
    loc: ['body', 'dates', 0],
  },
  { rule: 'a date-time instead of a date', spec: () => validSpec({ dates: [`${validDate()}T19:00:00Z`] }), loc: ['body', 'dates', 0] },
  { rule: 'the same date twice', spec: () => validSpec({ dates: [validDate(), validDate()] }), loc: ['body', 'dates'] },
  { rule: 'a party of 0', spec: () => validSpec({ party_size: 0 }), loc: ['body', 'party_size'] },
  { rule: 'a party of 21', spec: () => validSpec({ party_size: 21 }), loc: ['body', 'party_size'] },
  { rule: 'a party of 2.5', spec: () => validSpec({ party_size: 2.5 }), loc: ['body', 'party_size'] },
  { rule: 'a party size given as a string', spec: () => validSpec({ party_size: '2' }), loc: ['body', 'party_size'] },
  { rule: 'no earliest_time', spec: () => validSpec({ earliest_time: undefined }), loc: ['body', 'earliest_time'] },
  { rule: 'earliest_time 24:00', spec: () => validSpec({ earliest_time: '24:00', latest_time: '23:59' }), loc: ['body', 'earliest_time'] },
  { rule: 'earliest_time 7:30 without a leading zero', spec: () => validSpec({ earliest_time: '7:30' }), loc: ['body', 'earliest_time'] },
  { rule: 'earliest_time with seconds', spec: () => validSpec({ earliest_time: '18:00:00' }), loc: ['body', 'earliest_time'] },
  { rule: 'earliest_time 18:60', spec: () => validSpec({ earliest_time: '18:60' }), loc: ['body', 'earliest_time'] },
  { rule: 'earliest_time in 12-hour form', spec: () => validSpec({ earliest_time: '7:00 PM' }), loc: ['body', 'earliest_time'] },
  { rule: 'no latest_time', spec: () => validSpec({ latest_time: undefined }), loc: ['body', 'latest_time'] },
  { rule: 'latest_time 24:00', spec: () => validSpec({ latest_time: '24:00' }), loc: ['body', 'latest_time'] },
  {
    rule: 'latest_time one minute before earliest_time',
    spec: () => validSpec({ earliest_time: '20:00', latest_time: '19:59' }),
    loc: ['body', 'latest_time'],
  },
  { rule: 'an overnight window', spec: () => validSpec({ earliest_time: '22:00', latest_time: '01:00' }), loc: ['body', 'latest_time'] },
  { rule: 'a timezone that is not an IANA name', spec: () => validSpec({ timezone: 'Mars/Olympus_Mons' }), loc: ['body', 'timezone'] },
  { rule: 'a timezone given as an offset', spec: () => validSpec({ timezone: '-05:00' }), loc: ['body', 'timezone'] },
  { rule: 'a timezone of 81 characters', spec: () => validSpec({ timezone: `America/${'A'.repeat(73)}` }), loc: ['body', 'timezone'] },
  { rule: 'seating "patio"', spec: () => validSpec({ seating: 'patio' }), loc: ['body', 'seating'] },
  { rule: 'seating in capitals', spec: () => validSpec({ seating: 'INDOOR' }), loc: ['body', 'seating'] },
  { rule: 'mode "book_now"', spec: () => validSpec({ mode: 'book_now' }), loc: ['body', 'mode'] },
  {
    rule: 'a fee limit of 1000.01',
    spec: () => validSpec({ max_cancellation_fee_per_person: 1000.01 }),
    loc: ['body', 'max_cancellation_fee_per_person'],
  },
  {
    rule: 'a fee limit of -1',
    spec: () => validSpec({ max_cancellation_fee_per_person: -1 }),
    loc: ['body', 'max_cancellation_fee_per_person'],
  },
  {
    rule: 'a fee limit given as a string',
    spec: () => validSpec({ max_cancellation_fee_per_person: '25' }),
    loc: ['body', 'max_cancellation_fee_per_person'],
  },
  { rule: 'fee_review_hours 169', spec: () => validSpec({ fee_review_hours: 169 }), loc: ['body', 'fee_review_hours'] },
  { rule: 'fee_review_hours -1', spec: () => validSpec({ fee_review_hours: -1 }), loc: ['body', 'fee_review_hours'] },
  { rule: 'fee_review_hours 1.5', spec: () => validSpec({ fee_review_hours: 1.5 }), loc: ['body', 'fee_review_hours'] },
  { rule: 'no expires_at', spec: () => validSpec({ expires_at: undefined }), loc: ['body', 'expires_at'] },
  {
    rule: 'an expires_at without a UTC offset',
    spec: () => validSpec({ expires_at: `${dateIn(NEW_YORK, 2)}T19:00:00` }),
    loc: ['body', 'expires_at'],
  },
  { rule: 'an expires_at that is only a date', spec: () => validSpec({ expires_at: dateIn(NEW_YORK, 2) }), loc: ['body', 'expires_at'] },
  { rule: 'an expires_at in words', spec: () => validSpec({ expires_at: 'tomorrow evening' }), loc: ['body', 'expires_at'] },
  { rule: 'max_bookings 2', spec: () => validSpec({ max_bookings: 2 }), loc: ['body', 'max_bookings'] },
  { rule: 'max_bookings 0', spec: () => validSpec({ max_bookings: 0 }), loc: ['body', 'max_bookings'] },
  { rule: 'an unknown field', spec: () => validSpec({ notes: 'window seat please' }), loc: ['body', 'notes'] },
  { rule: 'an unknown field named like a view field', spec: () => validSpec({ status: 'active' }), loc: ['body', 'status'] },
]

describe('a spec that breaks a field rule', () => {
  it.each(BROKEN)('is refused for $rule on preview and create, and nothing is created', async ({ spec, loc }) => {
    const { token, userId } = await createUserWithToken()
    const body = spec()
    expectDetail(await preview(token, body), loc)
    expectDetail(await create(token, body), loc)
    expect(await countRequests(userId)).toBe(0)
  })

  it('is refused when the body is a JSON array instead of an object', async () => {
    const { token, userId } = await createUserWithToken()
    expectDetail(await preview(token, [validSpec()]), ['body'])
    expectDetail(await create(token, [validSpec()]), ['body'])
    expect(await countRequests(userId)).toBe(0)
  })
})

interface Boundary {
  rule: string
  spec: () => Spec
}

const ACCEPTED: Boundary[] = [
  { rule: 'a title of exactly 120 characters', spec: () => validSpec({ title: 't'.repeat(120) }) },
  { rule: 'an empty title', spec: () => validSpec({ title: '' }) },
  { rule: 'one venue', spec: () => validSpec({ venue_ids: nyIds(1) }) },
  { rule: 'eight venues', spec: () => validSpec({ venue_ids: nyIds(8) }) },
  { rule: 'one date', spec: () => validSpec({ dates: [validDate()] }) },
  { rule: '42 dates', spec: () => validSpec({ dates: datesIn(NEW_YORK, 42) }) },
  { rule: 'dates not in calendar order', spec: () => validSpec({ dates: [dateIn(NEW_YORK, 9), dateIn(NEW_YORK, 4)] }) },
  { rule: 'a party of 1', spec: () => validSpec({ party_size: 1 }) },
  { rule: 'a party of 20', spec: () => validSpec({ party_size: 20 }) },
  { rule: 'the widest window 00:00 to 23:59', spec: () => validSpec({ earliest_time: '00:00', latest_time: '23:59' }) },
  { rule: 'a window where latest equals earliest', spec: () => validSpec({ earliest_time: '19:00', latest_time: '19:00' }) },
  { rule: 'seating indoor', spec: () => validSpec({ seating: 'indoor' }) },
  { rule: 'seating outdoor', spec: () => validSpec({ seating: 'outdoor' }) },
  { rule: 'seating any', spec: () => validSpec({ seating: 'any' }) },
  { rule: 'mode auto_book', spec: () => validSpec({ mode: 'auto_book' }) },
  { rule: 'a fee limit of 0', spec: () => validSpec({ max_cancellation_fee_per_person: 0 }) },
  { rule: 'a fee limit of 1000', spec: () => validSpec({ max_cancellation_fee_per_person: 1000 }) },
  { rule: 'a fee limit with cents', spec: () => validSpec({ max_cancellation_fee_per_person: 25.5 }) },
  { rule: 'fee_review_hours 0', spec: () => validSpec({ fee_review_hours: 0 }) },
  { rule: 'fee_review_hours 168', spec: () => validSpec({ fee_review_hours: 168 }) },
  { rule: 'max_bookings 1', spec: () => validSpec({ max_bookings: 1 }) },
]

describe('a spec at the edge of every rule', () => {
  it.each(ACCEPTED)('is accepted by preview with $rule', async ({ spec }) => {
    const { token } = await createUserWithToken()
    const res = await preview(token, spec())
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.valid).toBe(true)
  })

  it('is created with eight venues, 42 dates and the largest limits', async () => {
    const { token, userId } = await createUserWithToken()
    const spec = validSpec({
      venue_ids: nyIds(8),
      dates: datesIn(NEW_YORK, 42),
      party_size: 20,
      max_cancellation_fee_per_person: 1000,
      fee_review_hours: 168,
      title: 't'.repeat(120),
    })
    const res = await create(token, spec)
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(res.body.venue_ids).toEqual(nyIds(8))
    expect(res.body.dates).toHaveLength(42)
    expect(res.body.party_size).toBe(20)
    expect(await countRequests(userId)).toBe(1)
  })
})
