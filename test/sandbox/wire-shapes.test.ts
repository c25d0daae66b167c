// The sandbox's replies against the client's zod schemas and the evidence fixtures: every reply
// parses with the schema the client uses for it, and carries no field the evidence fixtures
// (written from the public evidence) do not show. So the sandbox and the client cannot drift
// apart silently, and the sandbox cannot invent a field the client might come to rely on.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { reservationsOf, type Skipped, slotsOf } from '../../src/platform/mapping'
import {
  bookAnswer,
  codeChallengeAnswer,
  configAnswer,
  detailsAnswer,
  findAnswer,
  loginAnswer,
  reservationsAnswer,
  searchAnswer,
  signedInAnswer,
  userAnswer,
  venueAnswer,
} from '../../src/platform/wire'
import {
  codeChallengeReply,
  codeSentReply,
  codeSessionReply,
  loginReply,
  loginReplyRefreshInBody,
  loginReplyV4,
  userReply,
  userWithoutCard,
  userWithoutPassword,
} from '../platform/fixtures/auth'
import { book412Held, bookReply, detailsCardHold, detailsFree } from '../platform/fixtures/book'
import { findEvent, findFifthReview, findMixed, findNoneOpen } from '../platform/fixtures/find'
import { reservationsPages, reservationsReply } from '../platform/fixtures/reservations'
import {
  configReply,
  searchReply,
  searchReplyFifthReview,
  searchReplyFlagged,
  venueReply,
  venueReplyFifthReview,
  venueReplyFlagged,
} from '../platform/fixtures/venue'
import { dayAhead, freshWorld, OPEN_VENUE, ownSlot } from '../platform/world'
import { userHeaders, wire } from './raw'

/** Every key path of a JSON value; array items share `[]`, keys that are ids (digits) share `*`. */
function keyPaths(value: unknown, prefix = '', into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) keyPaths(item, `${prefix}[]`, into)
  } else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const path = `${prefix}${prefix ? '.' : ''}${/^\d+$/.test(key) ? '*' : key}`
      into.add(path)
      keyPaths(child, path, into)
    }
  }
  return into
}

/** The reply parses with the client's schema, and shows only fields some fixture shows. */
function expectEvidenceShape(reply: unknown, schema: z.ZodType, fixtures: unknown[]) {
  const parsed = schema.safeParse(reply)
  expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues)).toBe(true)
  const known = new Set(fixtures.flatMap((f) => [...keyPaths(f)]))
  expect([...keyPaths(reply)].filter((path) => !known.has(path))).toEqual([])
}

async function json(res: Response): Promise<unknown> {
  expect(res.headers.get('Content-Type') ?? '').toMatch(/application\/json/)
  return res.json()
}

describe('every sandbox reply has the evidence’s shape and parses with the client’s schema', () => {
  it('login and account', async () => {
    const { baseUrl } = freshWorld()
    const login = await wire(baseUrl, '/3/auth/password', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'ada@example.com', password: 'pw' }),
    })
    const body = await json(login)
    expectEvidenceShape(body, loginAnswer, [loginReply, loginReplyV4, loginReplyRefreshInBody])
    const token = loginAnswer.parse(body).token
    expectEvidenceShape(await json(await wire(baseUrl, '/2/user', { headers: userHeaders(token) })), userAnswer, [
      userReply,
      userWithoutCard,
      userWithoutPassword,
    ])
  })

  it('the code sign-in: the code sent, the challenge, the session', async () => {
    const world = freshWorld()
    const mobileNumber = '+12125550123'
    await world.control.createAccount({ email: 'ada@example.com', mobileNumber, password: null })
    const post = (path: string, form: Record<string, string>) =>
      wire(world.baseUrl, path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form),
      })
    const device = { device_type_id: '3', device_token: 'device-1' }
    expectEvidenceShape(await json(await post('/4/auth/mobile', { mobile_number: mobileNumber, method: 'sms', ...device })), z.object({}), [
      codeSentReply,
    ])
    const code = (await world.control.lastCode(mobileNumber)) ?? ''
    const challenge = await json(await post('/4/auth/mobile', { mobile_number: mobileNumber, code, ...device }))
    expectEvidenceShape(challenge, codeChallengeAnswer, [codeChallengeReply])
    const { challenge_id } = codeChallengeAnswer.parse(challenge).challenge
    const session = await json(await post('/4/auth/challenge', { challenge_id, em_address: 'ada@example.com', ...device }))
    expectEvidenceShape(session, signedInAnswer, [codeSessionReply])
  })

  it('venue search, venue and config', async () => {
    const { baseUrl } = freshWorld()
    const search = await wire(baseUrl, '/3/venuesearch/search', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: 'garden', per_page: 8, types: ['venue'] }),
    })
    expectEvidenceShape(await json(search), searchAnswer, [searchReply, searchReplyFlagged, searchReplyFifthReview])
    expectEvidenceShape(await json(await wire(baseUrl, `/3/venue?id=${OPEN_VENUE.id}`)), venueAnswer, [
      venueReply,
      venueReplyFlagged,
      venueReplyFifthReview,
    ])
    expectEvidenceShape(await json(await wire(baseUrl, `/2/config?venue_id=${OPEN_VENUE.id}`)), configAnswer, [configReply])
  })

  it('find, with tables of every kind of policy, and booking details, book and reservations', async () => {
    const world = freshWorld()
    const policies = [
      { kind: 'free' as const },
      { kind: 'fee' as const, feePerPerson: 25, cutoffHours: 24, cutoffTime: '17:00' },
      { kind: 'deposit' as const, amountPerPerson: 40, cutoffHours: 48 },
      { kind: 'prepaid' as const, amountPerPerson: 120 },
      { kind: 'ticketed' as const, amountPerPerson: 95 },
      // Terms the find reply states only in part still parse (the booking decision alerts on them).
      { kind: 'fee' as const, feePerPerson: 10, cutoffHours: 24, gap: 'payment_missing' as const },
      { kind: 'free' as const, gap: 'template_missing' as const },
      { kind: 'free' as const, gap: 'is_event_missing' as const },
    ]
    for (const [i, policy] of policies.entries()) await ownSlot(world, { time: `23:${String(5 * i).padStart(2, '0')}`, policy })
    const day = dayAhead(3)
    const find = await json(await wire(world.baseUrl, `/4/find?venue_id=${OPEN_VENUE.id}&day=${day}&party_size=2&lat=0&long=0`))
    expectEvidenceShape(find, findAnswer, [findMixed, findEvent, findNoneOpen, findFifthReview])

    const login = await world.platform.login('ada@example.com', 'pw')
    if (login.kind !== 'ok') throw new Error(login.kind)
    const headers = { ...userHeaders(login.value.authToken), 'Content-Type': 'application/json' }
    // Every entry parses too: the client skips (and logs) entries it cannot read, the sandbox has none.
    const skipped: Skipped[] = []
    const slots = slotsOf(findAnswer.parse(find), OPEN_VENUE.id, day, (s) => skipped.push(s))
    expect(skipped).toEqual([])
    const tokens = slots.filter((s) => s.time >= '23:00')
    expect(tokens).toHaveLength(policies.length)
    let bookToken = ''
    for (const slot of tokens) {
      const res = await wire(world.baseUrl, '/3/details', {
        method: 'POST',
        headers,
        body: JSON.stringify({ commit: 1, config_id: slot.configId, day, party_size: 2 }),
      })
      expect(res.status).toBe(201)
      const details = await json(res)
      expectEvidenceShape(details, detailsAnswer, [detailsCardHold, detailsFree])
      // resy-api.md, "Corrections and additions": no public source shows these in the details reply, so the sandbox never sends them.
      const paths = keyPaths(details)
      for (const invented of ['payment.is_paid', 'payment.deposit_fee', 'payment.config', 'payment.config.type']) {
        expect(paths.has(invented), invented).toBe(false)
      }
      bookToken ||= detailsAnswer.parse(details).book_token.value
    }

    const book = await wire(world.baseUrl, '/3/book', {
      method: 'POST',
      headers: { ...userHeaders(login.value.authToken), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ book_token: bookToken, source_id: 'resy.com-venue-details' }),
    })
    expect(book.status).toBe(201)
    expectEvidenceShape(await json(book), bookAnswer, [bookReply])
    const retried = await wire(world.baseUrl, '/3/book', {
      method: 'POST',
      headers: { ...userHeaders(login.value.authToken), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ book_token: bookToken, source_id: 'resy.com-venue-details' }),
    })
    expect(retried.status).toBe(412)
    expectEvidenceShape(await json(retried), z.looseObject({ specs: z.object({}) }), [book412Held])
    const listed = await wire(world.baseUrl, '/3/user/reservations?type=upcoming', { headers: userHeaders(login.value.authToken) })
    const list = await json(listed)
    // Besides the booking: the account's cancelled (current and legacy shape) and past entries (resy-api.md, "Corrections (third review)").
    expectEvidenceShape(list, reservationsAnswer, [reservationsReply, ...reservationsPages])
    expect(reservationsOf(reservationsAnswer.parse(list), (s) => skipped.push(s), Date.now())).toHaveLength(1)
    expect(skipped).toEqual([])
  })
})
