// The token buckets behind the hard caps per venue and per user account.
import { describe, expect, it } from 'vitest'
import { ACCOUNT_LIMIT, take, VENUE_LIMIT } from '../../src/watching/limits'
import { NOW } from './fixtures'

describe('the call caps', () => {
  it('lets a full bucket through, then makes the next call wait for its share', () => {
    let bucket = null
    for (let i = 0; i < VENUE_LIMIT.capacity; i++) {
      const got = take(bucket, VENUE_LIMIT, 1, NOW)
      expect(got.waitMs).toBe(0)
      bucket = got.bucket
    }
    expect(take(bucket, VENUE_LIMIT, 1, NOW).waitMs).toBe(250)
    expect(take(bucket, VENUE_LIMIT, 1, NOW + 250).waitMs).toBe(0)
  })

  it('holds a booking (three calls) back once an account spent its budget, and refills at one call a second', () => {
    let bucket = null
    for (let i = 0; i < 4; i++) bucket = take(bucket, ACCOUNT_LIMIT, 3, NOW).bucket
    expect(take(bucket, ACCOUNT_LIMIT, 3, NOW).waitMs).toBe(3_000)
    expect(take(bucket, ACCOUNT_LIMIT, 3, NOW + 3_000).waitMs).toBe(0)
  })

  it('never holds more than its capacity after a quiet spell', () => {
    const bucket = take(null, VENUE_LIMIT, 1, NOW).bucket
    expect(take(bucket, VENUE_LIMIT, 0, NOW + 3_600_000).bucket.tokens).toBe(VENUE_LIMIT.capacity)
  })
})
