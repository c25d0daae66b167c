// Sessions that end: a session without a refresh token ends at its token's
// `exp`; the diner is warned 7 days and 1 day before, the latest due warning only, each once.
import { describe, expect, it } from 'vitest'
import { dueWarning, sessionEndOf, sessionLapsed, timeLeftWords, warningKey } from '../../src/executors/session-end'
import { sessionWarning } from '../../src/executors/session-warnings'

const NOW = Date.parse('2026-11-23T12:00:00Z')
const DAY = 86_400_000
const HOUR = 3_600_000

describe("a session's end", () => {
  const facts = (refreshCiphertext: string | null, tokenExpiresAt: number | null, refreshExpiresAt: number | null = null) => ({
    refreshCiphertext,
    tokenExpiresAt,
    refreshExpiresAt,
  })

  it("is its token's exp without a refresh token", () => {
    expect(sessionEndOf(facts(null, NOW + DAY))).toBe(NOW + DAY)
    expect(sessionEndOf(facts(null, null))).toBeNull()
    expect(sessionLapsed(facts(null, NOW), NOW)).toBe(true)
    expect(sessionLapsed(facts(null, NOW + 1), NOW)).toBe(false)
  })

  it('never comes by itself with a refresh token of no stated expiry: it renews as before', () => {
    expect(sessionEndOf(facts('sealed', NOW + DAY))).toBeNull()
    expect(sessionLapsed(facts('sealed', NOW - DAY), NOW)).toBe(false)
  })

  it('comes when a stated refresh expiry and the last renewed token have both passed', () => {
    expect(sessionEndOf(facts('sealed', NOW + DAY, NOW + 30 * DAY))).toBe(NOW + 30 * DAY)
    expect(sessionEndOf(facts('sealed', NOW + 40 * DAY, NOW + 30 * DAY))).toBe(NOW + 40 * DAY)
    expect(sessionLapsed(facts('sealed', NOW - DAY, NOW - 1), NOW)).toBe(true)
  })
})

describe('the warnings', () => {
  it('are due 7 days and 1 day before the end, the latest one only, and none after it', () => {
    const end = NOW + 30 * DAY
    expect(dueWarning(end, end - 8 * DAY)).toBeNull()
    expect(dueWarning(end, end - 7 * DAY)).toBe('7d')
    expect(dueWarning(end, end - 2 * DAY)).toBe('7d')
    expect(dueWarning(end, end - DAY)).toBe('1d')
    expect(dueWarning(end, end - HOUR)).toBe('1d')
    expect(dueWarning(end, end)).toBeNull()
  })

  it('have one key per session and stage, so each is told once', () => {
    expect(warningKey(NOW, '7d')).not.toBe(warningKey(NOW, '1d'))
    expect(warningKey(NOW, '7d')).not.toBe(warningKey(NOW + 1, '7d'))
  })

  it('say how long is left without a time zone, what goes on after, and link to the reconnect form', () => {
    expect(timeLeftWords(NOW + 7 * DAY, NOW)).toBe('in 7 days')
    expect(timeLeftWords(NOW + 23 * HOUR, NOW)).toBe('in 23 hours')
    const alert = sessionWarning('usr_1', NOW + DAY - HOUR, '1d', NOW, 'https://tw.example')
    expect(alert).toMatchObject({ kind: 'session_ending', requestId: null, link: 'https://tw.example/settings#platform' })
    expect(alert.title).toBe('Your reservation platform sign-in ends in 23 hours')
    expect(alert.body).toMatch(/keeps watching your requests.*cannot book them until you sign in again/)
  })
})
