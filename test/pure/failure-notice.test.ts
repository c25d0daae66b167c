// When a venue-day's failed checks are told to its requests: a lasting failure at once, a passing
// one only once it persists, and a failure already told not again.
import { describe, expect, it } from 'vitest'
import { readFailure, TELL_AFTER_FAILURES, tellOfFailure } from '../../src/watching/platform-failures'

const noAnswer = readFailure({ kind: 'unavailable', detail: 'HTTP 503' })
const slowDown = readFailure({ kind: 'rate_limited', retryAfterMs: 1000 })
const blocked = readFailure({ kind: 'blocked', signal: 'cloudfront' })
const refusedKey = readFailure({ kind: 'operator_fault', detail: 'HTTP 419' })

describe('a failed check', () => {
  it.each([1, 2])('that did not answer is not told after %i failure(s) in a row', (failures) => {
    expect(tellOfFailure(noAnswer, failures, null)).toBe(false)
    expect(tellOfFailure(slowDown, failures, null)).toBe(false)
  })

  it(`that did not answer is told once it failed ${TELL_AFTER_FAILURES} times in a row`, () => {
    expect(tellOfFailure(noAnswer, TELL_AFTER_FAILURES, null)).toBe(true)
    expect(tellOfFailure(slowDown, TELL_AFTER_FAILURES + 1, null)).toBe(true)
  })

  it('that is a block or a refused key is told at the first failure', () => {
    expect(tellOfFailure(blocked, 1, null)).toBe(true)
    expect(tellOfFailure(refusedKey, 1, null)).toBe(true)
  })

  it('already told is not told again while it lasts', () => {
    expect(tellOfFailure(noAnswer, TELL_AFTER_FAILURES + 5, noAnswer.says)).toBe(false)
    expect(tellOfFailure(blocked, 2, blocked.says)).toBe(false)
  })

  it('that differs from the one told is told, whatever the count', () => {
    expect(tellOfFailure(noAnswer, 1, blocked.says)).toBe(true)
    expect(tellOfFailure(blocked, 4, noAnswer.says)).toBe(true)
  })
})
