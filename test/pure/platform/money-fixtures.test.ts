// The money evidence fixtures (fixtures/money.ts, resy-api.md, "Corrections (third review)") replayed through the real platform client:
// a local fetcher answers each call with the fixture's JSON, as the platform would over HTTP, and
// what the client reads goes to the booking decision. Also the book call: no card for a table
// that holds none, and a 410 "no longer available" read as an unclear outcome the account may
// disprove.
import { describe, expect, it } from 'vitest'
import { instantOf } from '../../../src/lib/zoned-time'
import type { BookingDetails, Slot } from '../../../src/platform/api'
import { createPlatformClient } from '../../../src/platform/client'
import { decideBooking } from '../../../src/request-aggregate/booking/booking-decision'
import { RequestSpec } from '../../../src/request-use-cases/schemas'
import { asUser } from '../../helpers/credentials'
import { detailsCardHold, detailsFree } from '../../platform/fixtures/book'
import { behindCdn } from '../../platform/fixtures/cdn'
import { FIND_DAY, FIND_VENUE, findMixed } from '../../platform/fixtures/find'
import { detailsLargeParty, detailsWithFees, detailsWithoutAmounts, findLargeParty, findTextFee } from '../../platform/fixtures/money'

/** What every answer of the API carries besides its body: its JSON type and the CDN's marks (resy-api.md, "Corrections (third review)"). */
function apiHeaders(): Headers {
  return behindCdn({ status: 200, headers: { 'Content-Type': 'application/json' }, body: '' })
}

interface Seen {
  path: string
  form: URLSearchParams | null
}

/** A client whose platform answers `route(path)` with JSON (status 200 unless given). */
function replaying(route: (path: string) => { status?: number; body: unknown }) {
  const seen: Seen[] = []
  const fetcher = {
    async fetch(request: Request): Promise<Response> {
      const url = new URL(request.url)
      const form = request.method === 'POST' && url.pathname === '/3/book' ? new URLSearchParams(await request.text()) : null
      seen.push({ path: url.pathname, form })
      const { status = 200, body } = route(url.pathname)
      return new Response(JSON.stringify(body), { status, headers: apiHeaders() })
    },
  }
  const client = createPlatformClient({
    fetcher,
    baseUrl: 'https://api.resy.com',
    apiKey: 'fixture-key',
    timeoutMs: 5_000,
    retryDelaysMs: [],
  })
  return { client, seen }
}

const ZONE = 'America/New_York'
const NOW = Date.parse('2026-11-20T15:00:00Z')
const spec = (party_size = 2) =>
  RequestSpec.parse({
    venue_ids: [FIND_VENUE],
    dates: [FIND_DAY],
    earliest_time: '17:00',
    latest_time: '22:00',
    party_size,
    timezone: ZONE,
    mode: 'auto_book',
    max_cancellation_fee_per_person: 25,
    fee_review_hours: 3,
    expires_at: '2026-12-03T22:00:00-05:00',
  })

/** Find and details through the client, then the decision for the slot at `time`. */
async function decisionFor(find: unknown, details: unknown, time: string, partySize = 2) {
  const { client } = replaying((path) => ({ status: path === '/3/details' ? 201 : 200, body: path === '/4/find' ? find : details }))
  const slots = await client.findSlots({ venueId: FIND_VENUE, day: FIND_DAY, partySize })
  if (slots.kind !== 'ok') throw new Error(`find: ${slots.kind}`)
  const slot: Slot | undefined = slots.value.find((s) => s.time === time)
  if (!slot) throw new Error(`no slot at ${time}`)
  const got = await client.bookingDetails(asUser('user-token'), { configId: slot.configId, day: FIND_DAY, partySize })
  if (got.kind !== 'ok') throw new Error(`details: ${got.kind}`)
  const value: BookingDetails = got.value
  const at = { day: FIND_DAY, startsAt: instantOf(FIND_DAY, time, ZONE), timeZone: ZONE }
  return decideBooking({ terms: slot.terms, details: value, spec: spec(partySize), at, now: NOW })
}

describe('money fixtures through the real client (resy-api.md, "Corrections (third review)")', () => {
  it('details whose amounts charge a Resy fee and tax: alert ([idx 53104099941])', async () => {
    expect(await decisionFor(findMixed, detailsWithFees, '18:00')).toEqual({
      kind: 'alert',
      reason: 'booking would charge a Resy fee of $5, tax of $0.45, $5.45 in total at once',
    })
  })

  it('details without amounts: alert ([idx 53104099941])', async () => {
    expect(await decisionFor(findMixed, detailsWithoutAmounts, '18:00')).toEqual({
      kind: 'alert',
      reason: 'the booking details do not say what booking charges',
    })
  })

  it('a per-person reservation fee stated only in need_to_know: alert ([idx 37355943101])', async () => {
    const got = await decisionFor(findTextFee, detailsFree, '18:30')
    expect(got).toMatchObject({ kind: 'alert', reason: expect.stringContaining('a $25 per person reservation fee') })
  })

  it('large-party terms: the $100 fee from 6 people on is above the limit; 2 people book at $25 ([idx 37355943101])', async () => {
    expect(await decisionFor(findLargeParty, detailsLargeParty, '19:30', 6)).toEqual({
      kind: 'alert',
      reason: 'for parties of 6 or more the cancellation fee is $100 per person, above the $25 limit',
    })
    expect(await decisionFor(findLargeParty, detailsCardHold, '19:30', 2)).toMatchObject({
      kind: 'book',
      feePerPerson: 25,
      needsCard: true,
    })
  })

  it('the book call carries struct_payment_method only when given a card (AbhiSivaprasad/resy-bot, Cierge:resy/book.go)', async () => {
    const { client, seen } = replaying(() => ({ status: 201, body: { resy_token: 'rr://x', reservation_id: 912345678 } }))
    expect(await client.book(asUser('user-token'), { bookToken: 'bt', paymentMethodId: null })).toEqual({
      kind: 'booked',
      reservationId: '912345678',
    })
    expect(await client.book(asUser('user-token'), { bookToken: 'bt', paymentMethodId: 7200456 })).toMatchObject({ kind: 'booked' })
    expect(seen.map((s) => s.form?.get('struct_payment_method') ?? null)).toEqual([null, '{"id":7200456}'])
  })

  it('a 410, or a body saying "no longer available", is an unclear outcome marked gone (resy-api.md, "Booking")', async () => {
    const gone = replaying(() => ({ status: 410, body: { status: 410, message: 'Slot no longer available' } }))
    expect(await gone.client.book(asUser('user-token'), { bookToken: 'bt', paymentMethodId: null })).toEqual({
      kind: 'unknown',
      detail: 'HTTP 410',
      saidGone: true,
    })
    const in412 = replaying(() => ({ status: 412, body: { status: 412, message: 'This slot is no longer available' } }))
    expect(await in412.client.book(asUser('user-token'), { bookToken: 'bt', paymentMethodId: null })).toMatchObject({
      kind: 'unknown',
      saidGone: true,
    })
    const plain500 = replaying(() => ({ status: 500, body: { status: 500, message: 'Server error' } }))
    const unclear = await plain500.client.book(asUser('user-token'), { bookToken: 'bt', paymentMethodId: null })
    expect(unclear).toEqual({ kind: 'unknown', detail: 'HTTP 500, unreadable answer' })
  })
})
