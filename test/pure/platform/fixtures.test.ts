// Every evidence fixture (test/platform/fixtures/, written from the public evidence) parses with
// the client's wire schemas and maps to what the service uses. The sandbox's replies are checked
// against the same schemas in test/sandbox/wire-shapes.test.ts.
import { describe, expect, it } from 'vitest'
import { blockSignalOf } from '../../../src/platform/blocks'
import { accountOf, reservationsOf, type Skipped, slotsOf, venueDetailsOf, venueHitOf } from '../../../src/platform/mapping'
import {
  bookAnswer,
  configAnswer,
  detailsAnswer,
  findAnswer,
  loginAnswer,
  reservationsAnswer,
  searchAnswer,
  userAnswer,
  venueAnswer,
} from '../../../src/platform/wire'
import { loginReply, userReply, userWithoutCard } from '../../platform/fixtures/auth'
import {
  apiJson500,
  cloudfrontError,
  emptyBody500,
  html403,
  impervaChallenge,
  type RawAnswer,
  sessionInvalid500,
} from '../../platform/fixtures/blocks'
import { bookReply, detailsCardHold, detailsFree } from '../../platform/fixtures/book'
import { apiAnswers, behindCdn, htmlPage200, impervaChallenge403, plainText500 } from '../../platform/fixtures/cdn'
import {
  FIND_DAY,
  FIND_VENUE,
  findEvent,
  findFifthReview,
  findLateService,
  findMixed,
  findNoneOpen,
  findWithOddEntries,
} from '../../platform/fixtures/find'
import {
  FIXTURES_NOW,
  legacyHeld,
  reservation,
  reservationsPages,
  reservationsReply,
  reservationsWithOddEntries,
} from '../../platform/fixtures/reservations'
import { configReply, searchReply, searchReplyFifthReview, venueReply } from '../../platform/fixtures/venue'

describe('evidence fixtures parse with the client’s schemas', () => {
  it('login and account', () => {
    expect(accountOf(loginAnswer.parse(loginReply))).toEqual({ displayName: 'Ada Lovelace', paymentMethodId: 7200456 })
    expect(accountOf(userAnswer.parse(userReply))).toEqual({ displayName: 'Ada Lovelace', paymentMethodId: 7200456 })
    expect(accountOf(userAnswer.parse(userWithoutCard)).paymentMethodId).toBeNull()
  })

  it('venue search, venue and config', () => {
    expect(searchAnswer.parse(searchReply).search.hits.map((h) => h.id.resy)).toEqual([60101])
    expect(venueDetailsOf(venueAnswer.parse(venueReply), configAnswer.parse(configReply), '2026-01-01')).toMatchObject({
      venueId: 60101,
      timeZone: 'America/New_York',
      urlSlug: 'juniper-and-vine',
      citySlug: 'new-york-ny',
    })
  })

  it('find', () => {
    const slots = slotsOf(findAnswer.parse(findMixed), FIND_VENUE, FIND_DAY)
    expect(slots.map((s) => [s.time, s.seatingType])).toEqual([
      ['18:00', 'Bar'],
      ['19:30', 'Dining Room'],
      ['20:15', 'Chef’s Counter'],
    ])
    expect(slotsOf(findAnswer.parse(findEvent), FIND_VENUE, FIND_DAY)).toHaveLength(1)
    expect(slotsOf(findAnswer.parse(findNoneOpen), FIND_VENUE, FIND_DAY)).toEqual([])
  })

  it('the fifth review’s flags: a paid add-on kept and marked, a cardholder-only slot left out, a concierge venue', () => {
    const slots = slotsOf(findAnswer.parse(findFifthReview), FIND_VENUE, FIND_DAY)
    expect(slots.map((s) => [s.time, s.terms.addOnRequired])).toEqual([['19:00', true]])
    const [hit] = searchAnswer.parse(searchReplyFifthReview).search.hits
    expect(hit && venueHitOf(hit, '2026-12-01').bookingBlocker).toBe('concierge')
  })

  it('booking details, book and reservations', () => {
    expect(detailsAnswer.parse(detailsCardHold).book_token.value).toBe('bt.fixture-book-token')
    expect(detailsAnswer.parse(detailsFree).book_token.value).toBe('bt.fixture-book-token')
    expect(bookAnswer.parse(bookReply).reservation_id).toBe(912345678)
    expect(reservationsOf(reservationsAnswer.parse(reservationsReply), () => undefined, FIXTURES_NOW)).toEqual([
      { reservationId: '912345678', venueId: 60101, day: '2026-12-03', time: '19:30', partySize: 2, seatingType: 'Dining Room' },
    ])
  })
})

describe('answers from in front of the API', () => {
  const signal = (a: RawAnswer) => blockSignalOf(a.status, new Headers(a.headers), a.body)

  it('are told apart from the API’s own answers', () => {
    expect(signal(emptyBody500)).toBe('empty_500')
    expect(signal(cloudfrontError)).toBe('cloudfront')
    expect(signal(impervaChallenge)).toBe('imperva')
    expect(signal(html403)).toBe('html_page')
    expect(signal(apiJson500)).toBeNull()
    expect(signal(sessionInvalid500)).toBeNull()
  })

  // resy-api.md, "Corrections (third review)": the CDN's headers and cookies are on every answer; status and body decide.
  const behind = (a: RawAnswer) => blockSignalOf(a.status, behindCdn(a), a.body)

  it.each(Object.entries({ ...apiAnswers, apiJson500, sessionInvalid500 }))(
    'the JSON answer %s is the API’s, whatever the CDN headers say',
    (_name, answer) => {
      expect(behind(answer)).toBeNull()
    },
  )

  it('each block form is a block behind the CDN headers too', () => {
    expect(behind(plainText500)).toBe('plain_500')
    expect(behind(emptyBody500)).toBe('empty_500')
    expect(behind(impervaChallenge)).toBe('imperva')
    expect(behind(impervaChallenge403)).toBe('imperva')
    expect(behind(html403)).toBe('html_page')
    expect(behind(htmlPage200)).toBe('html_page')
    expect(behind(cloudfrontError)).toBe('cloudfront')
  })
})

describe('one odd entry is skipped and reported; the rest is still used', () => {
  it('in the account’s reservations (a null time_slot, an unknown shape)', () => {
    const skipped: Skipped[] = []
    expect(reservationsOf(reservationsAnswer.parse(reservationsWithOddEntries), (s) => skipped.push(s), FIXTURES_NOW)).toEqual([
      { reservationId: '912345678', venueId: 60101, day: '2026-12-03', time: '19:30', partySize: 2, seatingType: 'Dining Room' },
    ])
    expect(skipped.map((s) => s.entry)).toEqual(['reservations[0]', 'reservations[1]'])
    expect(skipped[0]?.issue).toMatch(/^time_slot /)
  })

  it('in a find reply (a slot without a date, a template of an unknown shape)', () => {
    const skipped: Skipped[] = []
    const slots = slotsOf(findAnswer.parse(findWithOddEntries), FIND_VENUE, FIND_DAY, (s) => skipped.push(s))
    expect(slots.map((s) => s.time)).toEqual(['19:00', '20:00'])
    // The slot whose template was unreadable has no template: it is never booked automatically.
    expect(slots.find((s) => s.time === '20:00')?.terms.template).toBeNull()
    expect(skipped.map((s) => s.entry)).toEqual(['venues[0].templates.4999', 'venues[0].slots[0]'])
  })

  it('slots after midnight belong to the service day asked for, dated when they start', () => {
    const slots = slotsOf(findAnswer.parse(findLateService), FIND_VENUE, FIND_DAY)
    expect(slots.map((s) => [s.day, s.startDate, s.time])).toEqual([
      [FIND_DAY, FIND_DAY, '23:30'],
      [FIND_DAY, '2026-12-04', '00:30'],
    ])
  })
})

describe('what the account holds (resy-api.md, "Corrections (third review)": cancelled, finished, past and legacy entries)', () => {
  const NOW = FIXTURES_NOW
  const held = (page: unknown, onSkip: (s: Skipped) => void = () => undefined) =>
    reservationsOf(reservationsAnswer.parse(page), onSkip, NOW)

  it('leaves out the cancelled (current and legacy shape) and finished entries, and reads a held legacy entry', () => {
    expect(reservationsPages.flatMap((page) => held(page)).map((r) => [r.reservationId, r.day, r.time])).toEqual([
      [String(reservation.reservation_id), '2026-12-03', '19:30'],
      [String(legacyHeld.reservation_id), '2026-12-10', '20:00'],
    ])
  })

  it('leaves out a reservation whose time has passed, by `when`, else surely past in any zone', () => {
    const later = Date.parse('2026-12-04T01:00:00Z') // after `when` (00:30Z) of the 19:30 New York table
    expect(reservationsOf(reservationsAnswer.parse(reservationsReply), () => undefined, later)).toEqual([])
    const { when: _when, ...withoutWhen } = reservation
    const list = { reservations: [withoutWhen] }
    expect(reservationsOf(reservationsAnswer.parse(list), () => undefined, later)).toHaveLength(1) // could still be ahead somewhere
    expect(reservationsOf(reservationsAnswer.parse(list), () => undefined, Date.parse('2026-12-04T10:00:00Z'))).toEqual([])
  })

  it('skips and reports an entry whose status it does not know, naming its place in the whole list', () => {
    const skipped: Skipped[] = []
    const page = { reservations: [{ ...reservation, status: 'Waitlisted' }] }
    expect(reservationsOf(reservationsAnswer.parse(page), (s) => skipped.push(s), NOW, 20)).toEqual([])
    expect(skipped).toEqual([{ entry: 'reservations[20]', issue: 'status not recognised' }])
  })
})
