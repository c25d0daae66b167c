// The spec rules that answer a named code (venues, dates, expiry, token expiry), the defaults
// the contract fills in, what preview resolves, and bodies that are not JSON at all.
import { SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { expectError, newKey } from '../helpers/api'
import { createUserWithToken } from '../helpers/auth'
import { countRequests, create, minimalSpec, preview, type Spec, validSpec } from '../helpers/requests'
import { DAY_MS, dateIn, expiresIn, instantIn, isoWithOffset, NEW_YORK } from '../helpers/time'
import { seedVenues, UNKNOWN_VENUE_ID, VENUES } from '../helpers/venues'

beforeAll(seedVenues)

const ny = VENUES.ny[0]!
const chicago = VENUES.chicago
const la = VENUES.losAngeles

/** Preview and create both refuse with `code`, and create stores nothing. */
async function expectRefused(spec: Spec, status: number, code: string, tokenOptions: Parameters<typeof createUserWithToken>[0] = {}) {
  const { token, userId } = await createUserWithToken(tokenOptions)
  expectError(await preview(token, spec), status, code)
  expectError(await create(token, spec), status, code)
  expect(await countRequests(userId)).toBe(0)
}

describe('venues', () => {
  it('refuses a venue id that is not in the catalog with venue_not_found', async () => {
    await expectRefused(validSpec({ venue_ids: [ny.venue_id, UNKNOWN_VENUE_ID] }), 422, 'venue_not_found')
  })

  it('refuses venues of two time zones with venue_timezone_mismatch', async () => {
    await expectRefused(validSpec({ venue_ids: [ny.venue_id, chicago.venue_id], timezone: NEW_YORK }), 422, 'venue_timezone_mismatch')
  })

  it('refuses a venue whose zone differs from the timezone sent', async () => {
    await expectRefused(validSpec({ venue_ids: [la.venue_id], timezone: 'America/Chicago' }), 422, 'venue_timezone_mismatch')
  })

  it('refuses a Chicago venue when timezone is left to its New York default', async () => {
    await expectRefused(
      validSpec({ venue_ids: [chicago.venue_id], timezone: undefined, dates: [dateIn('America/Chicago', 7)] }),
      422,
      'venue_timezone_mismatch',
    )
  })

  it('resolves restaurant names and the timezone of a Chicago venue', async () => {
    const { token } = await createUserWithToken()
    const spec = validSpec({ venue_ids: [chicago.venue_id], timezone: 'America/Chicago', dates: [dateIn('America/Chicago', 7)] })
    const res = await preview(token, spec)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.timezone).toBe('America/Chicago')
    expect(res.body.restaurants).toEqual([expect.objectContaining(chicago)])
  })
})

describe('dates', () => {
  it('refuses yesterday in the request time zone with dates_out_of_range', async () => {
    await expectRefused(validSpec({ dates: [dateIn(NEW_YORK, -1), dateIn(NEW_YORK, 3)] }), 422, 'dates_out_of_range')
  })

  it('refuses the 91st day from today with dates_out_of_range', async () => {
    await expectRefused(
      validSpec({ dates: [dateIn(NEW_YORK, 3), dateIn(NEW_YORK, 91)], expires_at: expiresIn(DAY_MS) }),
      422,
      'dates_out_of_range',
    )
  })

  it('accepts today and the 90th day from today', async () => {
    const { token } = await createUserWithToken()
    const res = await preview(token, validSpec({ dates: [dateIn(NEW_YORK, 0), dateIn(NEW_YORK, 90)], expires_at: expiresIn(DAY_MS) }))
    expect(res.status, JSON.stringify(res.body)).toBe(200)
  })

  it('reckons today in the request time zone, not in UTC', async () => {
    const { token } = await createUserWithToken()
    const laSpec = (dates: string[]) =>
      validSpec({ venue_ids: [la.venue_id], timezone: la.time_zone, dates, expires_at: expiresIn(DAY_MS) })
    expect((await preview(token, laSpec([dateIn(la.time_zone, 0), dateIn(la.time_zone, 5)]))).status).toBe(200)
    expectError(await preview(token, laSpec([dateIn(la.time_zone, -1), dateIn(la.time_zone, 5)])), 422, 'dates_out_of_range')
  })
})

describe('expires_at', () => {
  it('refuses an instant in the past with invalid_expiry', async () => {
    await expectRefused(validSpec({ expires_at: expiresIn(-60_000) }), 422, 'invalid_expiry')
  })

  it('refuses an instant after the end of the last requested window with invalid_expiry', async () => {
    const last = dateIn(NEW_YORK, 7)
    const end = instantIn(NEW_YORK, last, '21:00')
    await expectRefused(validSpec({ dates: [dateIn(NEW_YORK, 3), last], expires_at: isoWithOffset(end + 60_000) }), 422, 'invalid_expiry')
  })

  it('measures the last window from the latest date, whatever the order of dates', async () => {
    const { token } = await createUserWithToken()
    const between = instantIn(NEW_YORK, dateIn(NEW_YORK, 4), '12:00')
    const res = await preview(token, validSpec({ dates: [dateIn(NEW_YORK, 5), dateIn(NEW_YORK, 2)], expires_at: isoWithOffset(between) }))
    expect(res.status, JSON.stringify(res.body)).toBe(200)
  })

  it('accepts an instant one minute before the end of the last window, written with a -05:00 style offset', async () => {
    const { token } = await createUserWithToken()
    const last = dateIn(NEW_YORK, 7)
    const ms = instantIn(NEW_YORK, last, '20:59')
    const local = new Date(ms - 5 * 3_600_000).toISOString().slice(0, 19)
    const res = await preview(token, validSpec({ dates: [last], expires_at: `${local}-05:00` }))
    expect(res.status, JSON.stringify(res.body)).toBe(200)
  })

  it('refuses an instant after the token expires with grant_expires_first', async () => {
    const spec = validSpec({ dates: [dateIn(NEW_YORK, 20)], expires_at: expiresIn(10 * DAY_MS) })
    await expectRefused(spec, 422, 'grant_expires_first', { expiresAt: Date.now() + 5 * DAY_MS })
  })

  it('accepts an instant just before the token expires', async () => {
    const tokenExpiry = Date.now() + 5 * DAY_MS
    const { token } = await createUserWithToken({ expiresAt: tokenExpiry })
    const spec = validSpec({ dates: [dateIn(NEW_YORK, 20)], expires_at: isoWithOffset(tokenExpiry - 3_600_000) })
    expect((await preview(token, spec)).status).toBe(200)
  })
})

describe('defaults and preview', () => {
  it('fills every default the contract names', async () => {
    const { token } = await createUserWithToken()
    const res = await preview(token, minimalSpec())
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.spec).toMatchObject({
      title: '',
      party_size: 2,
      timezone: NEW_YORK,
      seating: 'any',
      mode: 'alert_only',
      max_cancellation_fee_per_person: 0,
      fee_review_hours: 3,
      max_bookings: 1,
    })
  })

  it('resolves restaurants and reports the executor as not connected, creating nothing', async () => {
    const { token, userId } = await createUserWithToken()
    const res = await preview(token, validSpec({ venue_ids: [VENUES.ny[1]!.venue_id, VENUES.ny[2]!.venue_id] }))
    expect(res.status).toBe(200)
    expect(res.body.valid).toBe(true)
    expect(res.body.timezone).toBe(NEW_YORK)
    expect(res.body.restaurants).toEqual([expect.objectContaining(VENUES.ny[1]), expect.objectContaining(VENUES.ny[2])])
    expect(res.body.executor).toMatchObject({ ready: false, reason: 'resy_not_connected' })
    expect(await countRequests(userId)).toBe(0)
  })

  it('stores the defaults on a created request', async () => {
    const { token } = await createUserWithToken()
    const res = await create(token, minimalSpec())
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(res.body).toMatchObject({
      title: '',
      party_size: 2,
      timezone: NEW_YORK,
      seating: 'any',
      mode: 'alert_only',
      max_cancellation_fee_per_person: 0,
      fee_review_hours: 3,
      max_bookings: 1,
      status: 'active',
    })
  })
})

describe('request bodies that are not a JSON spec', () => {
  const send = (path: string, token: string, body: string, contentType: string, idempotencyKey?: string) =>
    SELF.fetch(`http://localhost/api/v1${path}`, {
      method: 'POST',
      body,
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': contentType,
        ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
      },
    })

  it.each(['/requests/preview', '/requests'])('answers 415 unsupported_media_type to a text/plain body on %s', async (path) => {
    const { token, userId } = await createUserWithToken()
    const res = await send(path, token, JSON.stringify(validSpec()), 'text/plain', newKey())
    expect(res.status).toBe(415)
    expect(await res.json()).toMatchObject({ code: 'unsupported_media_type' })
    expect(await countRequests(userId)).toBe(0)
  })

  it.each(['/requests/preview', '/requests'])('answers 422 json_invalid to malformed JSON on %s', async (path) => {
    const { token, userId } = await createUserWithToken()
    const res = await send(path, token, '{"venue_ids": [900001', 'application/json', newKey())
    expect(res.status).toBe(422)
    const body = (await res.json()) as { detail: { loc: unknown[]; type: string }[] }
    expect(body.detail.map((d) => d.type)).toContain('json_invalid')
    expect(body.detail[0]?.loc[0]).toBe('body')
    expect(await countRequests(userId)).toBe(0)
  })

  it('accepts a JSON body whose content type carries a charset', async () => {
    const { token } = await createUserWithToken()
    const res = await send('/requests/preview', token, JSON.stringify(validSpec()), 'application/json; charset=utf-8')
    expect(res.status).toBe(200)
  })
})
