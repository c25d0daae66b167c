// The evidence fixtures replayed through the real client WITH the CDN's headers and cookies, as
// every answer of the platform carries them (shared/reference/resy-api.md, "Corrections (third review)"): each answer is
// read as the evidence says it should be, a header never makes an API answer a block, and each
// block form is one. The fixtures cite their sources (test/platform/fixtures/*.ts).
import { describe, expect, it } from 'vitest'
import { createPlatformClient } from '../../../src/platform/client'
import { DEFAULT_USER_AGENT } from '../../../src/platform/user-agent'
import { asUser } from '../../helpers/credentials'
import { loginReply, refreshReply, userReply } from '../../platform/fixtures/auth'
import {
  apiJson500,
  cloudfrontError,
  emptyBody500,
  html403,
  impervaChallenge,
  type RawAnswer,
  sessionInvalid500,
} from '../../platform/fixtures/blocks'
import { book412Held, bookReply, detailsCardHold } from '../../platform/fixtures/book'
import {
  apiAnswers,
  behindCdn,
  htmlPage200,
  impervaChallenge403,
  plainText500,
  REFRESH_VALUE,
  refreshCookieBase64,
} from '../../platform/fixtures/cdn'
import { FIND_DAY, FIND_VENUE, findMixed } from '../../platform/fixtures/find'
import { findEmptyDay } from '../../platform/fixtures/find-empty'
import { FIXTURES_NOW, legacyHeld, reservation, reservationsPages } from '../../platform/fixtures/reservations'
import { configReply, searchReply, venueReply } from '../../platform/fixtures/venue'

const json = (body: unknown, status = 200, headers: Record<string, string> = {}): RawAnswer => ({
  status,
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify(body),
})

/** The real client against a platform that answers each call with a fixture, behind the CDN. */
function replaying(answer: (url: URL, request: Request) => RawAnswer) {
  const sent: Request[] = []
  const platform = createPlatformClient({
    fetcher: {
      fetch: async (request: Request) => {
        sent.push(request.clone())
        const a = answer(new URL(request.url), request)
        return new Response(a.body === '' ? null : a.body, { status: a.status, headers: behindCdn(a) })
      },
    },
    baseUrl: 'https://api.resy.com',
    apiKey: 'fixture-api-key',
    timeoutMs: 2000,
    retryDelaysMs: [],
    now: () => FIXTURES_NOW,
  })
  return { platform, sent }
}

const always = (a: RawAnswer) => replaying(() => a)
const find = (platform: ReturnType<typeof replaying>['platform']) =>
  platform.findSlots({ venueId: FIND_VENUE, day: FIND_DAY, partySize: 2 })

describe('every fixture answer, behind the CDN, is read through the real client as the API’s', () => {
  it('login keeps the refresh cookie exactly as Set-Cookie gave it (+ / =), and refresh sends it back unchanged', async () => {
    const { platform, sent } = replaying((url) =>
      url.pathname === '/4/auth/password'
        ? json(loginReply, 200, { 'Set-Cookie': refreshCookieBase64 })
        : json(refreshReply, 200, { 'Set-Cookie': refreshCookieBase64 }),
    )
    const login = await platform.login('ada@example.com', 'pw')
    expect(login).toMatchObject({ kind: 'ok', value: { displayName: 'Ada Lovelace', refreshToken: REFRESH_VALUE } })
    expect((await platform.refresh({ refreshToken: REFRESH_VALUE, cdnCookies: {} })).kind).toBe('ok')
    expect(sent[1]?.headers.get('Cookie')).toBe(`production_refresh_token=${REFRESH_VALUE}`)
  })

  it('account, search, venue and config, find (a day with slots and a day with none), details, book, reservations', async () => {
    const { platform, sent } = replaying((url) => {
      switch (url.pathname) {
        case '/2/user':
          return json(userReply)
        case '/3/venuesearch/search':
          return json(searchReply)
        case '/3/venue':
          return json(venueReply)
        case '/2/config':
          return json(configReply)
        case '/4/find':
          return json(url.searchParams.get('day') === FIND_DAY ? findMixed : findEmptyDay)
        case '/3/details':
          return json(detailsCardHold, 201)
        case '/3/book':
          return json(bookReply, 201)
        case '/3/user/reservations':
          return json(reservationsPages[Number(url.searchParams.get('offset')) / 2] ?? { reservations: [] })
        default:
          return json({ status: 404, message: 'Not Found' }, 404)
      }
    })
    expect(await platform.checkAccount(asUser('t'))).toEqual({
      kind: 'ok',
      value: { displayName: 'Ada Lovelace', paymentMethodId: 7200456 },
    })
    expect(await platform.searchVenues('juniper')).toMatchObject({ kind: 'ok', value: [{ venueId: 60101 }] })
    expect(await platform.venueDetails(60101)).toMatchObject({ kind: 'ok', value: { venueId: 60101, timeZone: 'America/New_York' } })
    expect(await find(platform)).toMatchObject({ kind: 'ok', value: [{ time: '18:00' }, { time: '19:30' }, { time: '20:15' }] })
    expect(await platform.findSlots({ venueId: FIND_VENUE, day: '2026-12-04', partySize: 2 })).toEqual({ kind: 'ok', value: [] })
    expect(await platform.bookingDetails(asUser('t'), { configId: 'c', day: FIND_DAY, partySize: 2 })).toMatchObject({
      kind: 'ok',
      value: { bookToken: 'bt.fixture-book-token', cancellationFee: 25 },
    })
    expect(await platform.book(asUser('t'), { bookToken: 'bt', paymentMethodId: 7200456 })).toEqual({
      kind: 'booked',
      reservationId: '912345678',
    })
    // Every page is read; the cancelled (current and legacy) and the finished entries hold no table.
    expect((await platform.listReservations(asUser('t'))).kind === 'ok').toBe(true)
    const listed = await platform.listReservations(asUser('t'))
    expect(listed.kind === 'ok' && listed.value.map((r) => r.reservationId)).toEqual([
      String(reservation.reservation_id),
      String(legacyHeld.reservation_id),
    ])
    // Like the web app: a browser User-Agent, its Accept, and Origin/Referer https://resy.com on every call, book included (resy-api.md, "Corrections (third review)").
    for (const request of sent) {
      expect([
        request.headers.get('User-Agent'),
        request.headers.get('Accept'),
        request.headers.get('Origin'),
        request.headers.get('Referer'),
      ]).toEqual([DEFAULT_USER_AGENT, 'application/json, text/plain, */*', 'https://resy.com', 'https://resy.com/'])
    }
  })

  it('reads on without metadata.total until an empty page, and stops when the platform repeats a page', async () => {
    const withoutTotal = reservationsPages.map(({ metadata: _m, ...page }) => page)
    const pages = replaying((url) => json(withoutTotal[Number(url.searchParams.get('offset')) / 2] ?? { reservations: [] }))
    const listed = await pages.platform.listReservations(asUser('t'))
    expect(listed.kind === 'ok' && listed.value.map((r) => r.reservationId)).toEqual([
      String(reservation.reservation_id),
      String(legacyHeld.reservation_id),
    ])
    expect(pages.sent.map((r) => new URL(r.url).searchParams.get('offset'))).toEqual(['0', '2', '4', '5'])
    // A platform that ignores `offset` (resy-api.md, "Listing reservations": "scoping params seemed ignored") answers page 1 again: read once.
    const same = replaying(() => json(withoutTotal[1]))
    const once = await same.platform.listReservations(asUser('t'))
    expect(once.kind === 'ok' && once.value.map((r) => r.reservationId)).toEqual([String(reservation.reservation_id)])
    expect(same.sent).toHaveLength(2)
  })

  it.each(Object.entries(apiAnswers))('reads the JSON answer %s as the API’s, never as a block', async (_name, answer) => {
    const { platform } = always(answer)
    const got = await find(platform)
    expect(got.kind).not.toBe('blocked')
  })

  it('maps 404, 412 and 419 behind the CDN as the API’s answers: slot gone, verify, reconnect or operator', async () => {
    expect(await always(apiAnswers.notFound404 as RawAnswer).platform.book(asUser('t'), { bookToken: 'b', paymentMethodId: null })).toEqual(
      {
        kind: 'refused',
        reason: 'slot_gone',
      },
    )
    expect(await always(json(book412Held, 412)).platform.book(asUser('t'), { bookToken: 'b', paymentMethodId: null })).toEqual({
      kind: 'unknown',
      detail: 'HTTP 412 with specs: the account may already hold this table',
    })
    expect(await always(apiAnswers.unauthorized419 as RawAnswer).platform.checkAccount(asUser('t'))).toEqual({ kind: 'reauth' })
    expect((await find(always(apiAnswers.unauthorized419 as RawAnswer).platform)).kind).toBe('operator_fault')
    expect(await always(sessionInvalid500).platform.checkAccount(asUser('t'))).toEqual({ kind: 'reauth' })
    expect((await find(always(apiJson500).platform)).kind).toBe('unavailable')
  })
})

describe('each block form, behind the same CDN headers, is a block', () => {
  it.each([
    ['the plain-text 500', plainText500, 'plain_500'],
    ['an empty 500', emptyBody500, 'empty_500'],
    ['an Imperva challenge at 200', impervaChallenge, 'imperva'],
    ['an Imperva challenge at 403', impervaChallenge403, 'imperva'],
    ['an HTML 403 page', html403, 'html_page'],
    ['an HTML page at 200', htmlPage200, 'html_page'],
    ['a CloudFront error', cloudfrontError, 'cloudfront'],
  ] as const)('%s', async (_name, answer, signal) => {
    const { platform, sent } = always(answer)
    expect(await find(platform)).toEqual({ kind: 'blocked', signal })
    expect(sent).toHaveLength(1) // never retried
    expect(await platform.login('ada@example.com', 'pw')).toEqual({ kind: 'blocked', signal })
    expect((await platform.book(asUser('t'), { bookToken: 'b', paymentMethodId: null })).kind).toBe('unknown')
  })
})
