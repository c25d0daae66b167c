// A platform reservation is recorded for one request only: two requests of one user verifying the
// same table at the same moment cannot both claim it (the device simulation once counted one
// reservation recorded for two requests).
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { dbOf } from '../../src/db/client'
import { claimReservation, type NewReservation } from '../../src/db/reservations'

const row = (requestId: string, platformReservationId: string): NewReservation => ({
  requestId,
  userId: 'usr_claim',
  principalId: 'pat_claim',
  venueId: 60502,
  date: '2026-12-02',
  time: '19:45',
  partySize: 2,
  seating: 'Dining Room',
  startsAt: Date.parse('2026-12-03T00:45:00Z'),
  platformReservationId,
  cancellationFee: null,
  cancellationDeadline: null,
  verified: true,
  createdAt: 1,
  verifiedAt: 2,
})

describe('claiming a verified reservation', () => {
  it('gives one platform reservation to one request, even when two claim it at once', async () => {
    const db = dbOf(env.DB)
    const [first, second] = await Promise.all([claimReservation(db, row('sr_a', 'res-1')), claimReservation(db, row('sr_b', 'res-1'))])
    expect([first, second].sort()).toEqual([false, true])
    const rows = await env.DB.prepare("select request_id from reservations where platform_reservation_id = 'res-1'").all()
    expect(rows.results).toHaveLength(1)
  })

  it('is idempotent for the request that holds it, and leaves other reservations free', async () => {
    const db = dbOf(env.DB)
    expect(await claimReservation(db, row('sr_c', 'res-2'))).toBe(true)
    expect(await claimReservation(db, row('sr_c', 'res-2'))).toBe(true)
    expect(await claimReservation(db, row('sr_d', 'res-3'))).toBe(true)
  })
})
