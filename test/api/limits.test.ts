// The 20-open-requests limit and the auto_book overlap rule, both under concurrency.
import { beforeAll, describe, expect, it } from 'vitest'
import { expectError } from '../helpers/api'
import { createTokenForUser, createUserWithToken } from '../helpers/auth'
import {
  countOpenRequests,
  countRequests,
  create,
  createOk,
  insertReservation,
  preview,
  type Spec,
  stop,
  update,
  validSpec,
} from '../helpers/requests'
import { dateIn, NEW_YORK } from '../helpers/time'
import { seedVenues, VENUES } from '../helpers/venues'

beforeAll(seedVenues)

/** Distinct, never-overlapping alert_only specs: one per day. */
const dinnerOnDay = (i: number): Spec => validSpec({ title: `dinner ${i}`, dates: [dateIn(NEW_YORK, 3 + i)] })

describe('open requests per user', () => {
  it('refuses the 21st open request with 429 request_limit', async () => {
    const { token, userId } = await createUserWithToken()
    for (let i = 0; i < 20; i++) await createOk(token, dinnerOnDay(i))
    expectError(await create(token, dinnerOnDay(20)), 429, 'request_limit')
    expect(await countRequests(userId)).toBe(20)
  })

  it("does not count stopped requests, and counts across all of the user's tokens", async () => {
    const first = await createUserWithToken()
    const second = await createTokenForUser(first.userId)
    const ids: string[] = []
    for (let i = 0; i < 10; i++) ids.push((await createOk(first.token, dinnerOnDay(i))).id)
    for (let i = 10; i < 20; i++) await createOk(second.token, dinnerOnDay(i))
    expectError(await create(second.token, dinnerOnDay(20)), 429, 'request_limit')
    await stop(first.token, ids[0]!)
    await createOk(second.token, dinnerOnDay(20))
    expectError(await create(first.token, dinnerOnDay(21)), 429, 'request_limit')
    expect(await countOpenRequests(first.userId)).toBe(20)
  })

  it('counts auto_book requests awaiting approval as open', async () => {
    const { token } = await createUserWithToken()
    for (let i = 0; i < 20; i++) await createOk(token, validSpec({ mode: 'auto_book', dates: [dateIn(NEW_YORK, 3 + i)] }))
    expectError(await create(token, dinnerOnDay(30)), 429, 'request_limit')
  })

  it('leaves exactly 20 open after 60 concurrent creates', async () => {
    const { token, userId } = await createUserWithToken()
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => create(token, dinnerOnDay(i))))
    const statuses = results.map((r) => r.status)
    expect(statuses.filter((s) => s === 201)).toHaveLength(20)
    expect(statuses.filter((s) => s === 429)).toHaveLength(40)
    for (const refused of results.filter((r) => r.status === 429)) expect(refused.body.code).toBe('request_limit')
    expect(await countOpenRequests(userId)).toBe(20)
    expect(await countRequests(userId)).toBe(20)
  })
})

const ny = VENUES.ny[0]!.venue_id
const autoBook = (overrides: Spec): Spec => validSpec({ mode: 'auto_book', venue_ids: [ny], ...overrides })

describe('overlapping auto_book requests', () => {
  const day = () => dateIn(NEW_YORK, 10)

  it('refuses an auto_book spec whose window intersects an open auto_book request, on preview and create', async () => {
    const { token, userId } = await createUserWithToken()
    await createOk(token, autoBook({ dates: [day()], earliest_time: '18:00', latest_time: '20:00' }))
    const overlapping = autoBook({
      venue_ids: [VENUES.ny[1]!.venue_id],
      dates: [dateIn(NEW_YORK, 12), day()],
      earliest_time: '19:30',
      latest_time: '21:00',
    })
    expectError(await preview(token, overlapping), 409, 'overlapping_booking_request')
    expectError(await create(token, overlapping), 409, 'overlapping_booking_request')
    expect(await countRequests(userId)).toBe(1)
  })

  it('names its own overlapping request and says it waits for approval, not that it books a table', async () => {
    const { token } = await createUserWithToken()
    const first = await createOk(token, autoBook({ dates: [day()] }))
    const refused = await create(token, autoBook({ dates: [day()], party_size: 4 }))
    expectError(refused, 409, 'overlapping_booking_request')
    expect(refused.body.message).toContain(`Request ${first.id} is waiting for the user to approve`)
    expect(refused.body.message).toContain('Update or stop that request')
    expect(refused.body.message).not.toContain('already books')
  })

  it("points to the Requests page, without naming it, when the overlapping request is another token's", async () => {
    const { token, userId } = await createUserWithToken()
    const first = await createOk(token, autoBook({ dates: [day()] }))
    const other = await createTokenForUser(userId)
    for (const refused of [
      await preview(other.token, autoBook({ dates: [day()] })),
      await create(other.token, autoBook({ dates: [day()] })),
    ]) {
      expectError(refused, 409, 'overlapping_booking_request')
      expect(refused.body.message).toContain("Another of your assistants' requests")
      expect(refused.body.message).toContain('http://localhost:8787/requests')
      expect(refused.body.message).not.toContain(first.id)
      expect(refused.body.message).not.toMatch(/update or stop that request/i)
    }
  })

  it('allows an auto_book spec on the same date with a window that does not intersect', async () => {
    const { token } = await createUserWithToken()
    await createOk(token, autoBook({ dates: [day()], earliest_time: '18:00', latest_time: '19:00' }))
    const later = autoBook({ dates: [day()], earliest_time: '20:00', latest_time: '22:00' })
    expect((await preview(token, later)).status).toBe(200)
    expect((await create(token, later)).status).toBe(201)
  })

  it('allows an intersecting auto_book spec on another date', async () => {
    const { token } = await createUserWithToken()
    await createOk(token, autoBook({ dates: [day()] }))
    expect((await create(token, autoBook({ dates: [dateIn(NEW_YORK, 11)] }))).status).toBe(201)
  })

  it('allows an alert_only spec over an open auto_book request, and auto_book over an alert_only one', async () => {
    const { token } = await createUserWithToken()
    await createOk(token, autoBook({ dates: [day()] }))
    expect((await create(token, validSpec({ mode: 'alert_only', dates: [day()] }))).status).toBe(201)
    const other = dateIn(NEW_YORK, 14)
    await createOk(token, validSpec({ mode: 'alert_only', dates: [other] }))
    expect((await create(token, autoBook({ dates: [other] }))).status).toBe(201)
  })

  it('compares windows as instants across time zones', async () => {
    const { token } = await createUserWithToken()
    // 19:00–20:00 in New York is 16:00–17:00 in Los Angeles and 18:00–19:00 in Chicago.
    await createOk(token, autoBook({ dates: [day()], earliest_time: '19:00', latest_time: '20:00' }))
    const la = VENUES.losAngeles
    const laSameInstant = autoBook({
      venue_ids: [la.venue_id],
      timezone: la.time_zone,
      dates: [day()],
      earliest_time: '16:15',
      latest_time: '16:45',
    })
    expectError(await preview(token, laSameInstant), 409, 'overlapping_booking_request')
    const chicago = VENUES.chicago
    const chicagoSameClock = autoBook({
      venue_ids: [chicago.venue_id],
      timezone: chicago.time_zone,
      dates: [day()],
      earliest_time: '19:15',
      latest_time: '19:45',
    })
    expect((await preview(token, chicagoSameClock)).status).toBe(200)
  })

  it('frees the dinner once the first request is stopped', async () => {
    const { token } = await createUserWithToken()
    const first = await createOk(token, autoBook({ dates: [day()] }))
    const second = autoBook({ dates: [day()], party_size: 4 })
    expectError(await create(token, second), 409, 'overlapping_booking_request')
    await stop(token, first.id)
    expect((await create(token, second)).status).toBe(201)
  })

  it('does not hold a request against its own update, but does against another open one', async () => {
    const { token } = await createUserWithToken()
    const first = await createOk(token, autoBook({ dates: [day()], earliest_time: '18:00', latest_time: '19:00' }))
    expect((await update(token, first.id, 1, autoBook({ dates: [day()], earliest_time: '18:30', latest_time: '19:30' }))).status).toBe(200)
    const second = await createOk(token, autoBook({ dates: [day()], earliest_time: '21:00', latest_time: '22:00' }))
    expectError(
      await update(token, second.id, 1, autoBook({ dates: [day()], earliest_time: '19:00', latest_time: '21:30' })),
      409,
      'overlapping_booking_request',
    )
  })

  it("ignores another user's auto_book requests", async () => {
    const a = await createUserWithToken()
    const b = await createUserWithToken()
    await createOk(a.token, autoBook({ dates: [day()] }))
    expect((await create(b.token, autoBook({ dates: [day()] }))).status).toBe(201)
  })

  it('lets only one of 10 concurrent overlapping auto_book creates through', async () => {
    const { token, userId } = await createUserWithToken()
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => create(token, autoBook({ dates: [day()], party_size: 2 + i }))))
    expect(results.filter((r) => r.status === 201)).toHaveLength(1)
    expect(results.filter((r) => r.status === 409).map((r) => r.body.code)).toEqual(Array(9).fill('overlapping_booking_request'))
    expect(await countRequests(userId)).toBe(1)
  })
})

describe('an auto_book spec over an existing reservation', () => {
  const day = () => dateIn(NEW_YORK, 15)

  /** A user with a verified 19:00 reservation on `day`, made through an earlier alert_only request. */
  async function userWithReservation() {
    const owner = await createUserWithToken()
    const earlier = await createOk(owner.token, validSpec({ dates: [day()], title: 'earlier' }))
    await insertReservation(earlier.id, { date: day(), time: '19:00' })
    await stop(owner.token, earlier.id)
    return owner
  }

  it('is refused with 409 existing_reservation on preview and create when the window covers it', async () => {
    const { token, userId } = await userWithReservation()
    const spec = autoBook({ dates: [day()], earliest_time: '18:00', latest_time: '21:00' })
    expectError(await preview(token, spec), 409, 'existing_reservation')
    expectError(await create(token, spec), 409, 'existing_reservation')
    expect(await countRequests(userId)).toBe(1)
  })

  it('is allowed when the window misses the reservation, or for alert_only', async () => {
    const { token } = await userWithReservation()
    expect((await preview(token, autoBook({ dates: [day()], earliest_time: '20:00', latest_time: '22:00' }))).status).toBe(200)
    expect((await preview(token, autoBook({ dates: [dateIn(NEW_YORK, 16)] }))).status).toBe(200)
    expect((await preview(token, validSpec({ mode: 'alert_only', dates: [day()] }))).status).toBe(200)
  })

  it('is refused even when the reservation was made through another token of the same user', async () => {
    const { userId } = await userWithReservation()
    const { token: other } = await createTokenForUser(userId)
    expectError(await preview(other, autoBook({ dates: [day()] })), 409, 'existing_reservation')
  })

  it("ignores another user's reservation", async () => {
    await userWithReservation()
    const stranger = await createUserWithToken()
    expect((await preview(stranger.token, autoBook({ dates: [day()] }))).status).toBe(200)
  })
})
