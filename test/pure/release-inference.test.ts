// Learning a venue's release rule from the moves of its booking horizon (last_calendar_day): at
// a fixed time, with a day skipped, after the venue moved its time, and through a calendar that lags.
import { describe, expect, it } from 'vitest'
import { addDays, instantOf } from '../../src/lib/zoned-time'
import { type HorizonMove, type HorizonSeen, observeHorizon } from '../../src/watching/horizon-moves'
import { nextHorizonCheck, openingsOfDay } from '../../src/watching/horizon-plan'
import { compressedClock, REAL_CLOCK } from '../../src/watching/release-clock'
import { disagrees, learnRule, openingOf } from '../../src/watching/release-inference'

const ZONE = 'America/New_York'
const S = 1000
const TEN = 10 * 3600

/** The move that opened `daysAhead` days past `date` at local `time`, seen by checks `before` and `after` seconds around it. */
function moveOn(date: string, time: string, before: number, after: number, daysAhead = 30): HorizonMove {
  const at = instantOf(date, time, ZONE)
  return { from: addDays(date, daysAhead - 1), to: addDays(date, daysAhead), notBefore: at - before * S, notAfter: at + after * S }
}

const dates = (n: number) => Array.from({ length: n }, (_, i) => addDays('2026-12-01', i))

describe('learning a release rule from the horizon', () => {
  it('learns days ahead and the time from moves at a fixed time, ever more narrowly and surely', () => {
    // First seen by checks a minute apart, then by a close watch two seconds apart.
    const first = learnRule([moveOn('2026-12-01', '10:00:00', 25, 35)], ZONE, REAL_CLOCK)
    expect(first).toMatchObject({ daysInAdvance: 30, moves: 1, lagging: false, previous: null })
    expect(Math.abs((first?.secondOfDay ?? 0) - TEN)).toBeLessThanOrEqual(30)
    const second = learnRule([moveOn('2026-12-01', '10:00:00', 25, 35), moveOn('2026-12-02', '10:00:00', 1, 1)], ZONE, REAL_CLOCK)
    expect(second).toMatchObject({ daysInAdvance: 30, secondOfDay: TEN, moves: 2 })
    expect(second?.uncertaintySeconds).toBeLessThanOrEqual(1)
    expect(second?.confidence).toBeGreaterThan(first?.confidence ?? 1)
    const week = learnRule(
      dates(7).map((d) => moveOn(d, '10:00:00', 1, 1)),
      ZONE,
      REAL_CLOCK,
    )
    expect(week?.confidence).toBeGreaterThanOrEqual(0.95)
  })

  it('reads a release just before midnight as the day before, whichever side of midnight its bracket ends', () => {
    const crossing = moveOn('2026-12-01', '23:59:50', 5, 20, 14)
    const rule = learnRule([crossing, moveOn('2026-12-02', '23:59:50', 2, 2, 14)], ZONE, REAL_CLOCK)
    expect(rule).toMatchObject({ daysInAdvance: 14, secondOfDay: 86_390 })
  })

  it('keeps the rule when a day is skipped: a move seen only over two days places no time, and two days opened at once agree', () => {
    const [d1, , d3, d4] = dates(4) as [string, string, string, string]
    // No check on the second day: the next answer shows two more days, bracketed over a day and more.
    const skipped: HorizonMove = {
      from: addDays(d1, 30),
      to: addDays(d3, 30),
      notBefore: instantOf(d1, '10:05', ZONE),
      notAfter: instantOf(d3, '10:00:02', ZONE),
    }
    // The venue opened two days at once (a closed day caught up) at its usual time.
    const double: HorizonMove = { ...moveOn(d4, '10:00:00', 1, 1), from: addDays(d4, 28) }
    const rule = learnRule([moveOn(d1, '10:00:00', 1, 1), skipped, double], ZONE, REAL_CLOCK)
    expect(rule).toMatchObject({ daysInAdvance: 30, secondOfDay: TEN, moves: 2, previous: null })
  })

  it('follows a moved release time at once, keeps the old one as previous, and is surer once the new time repeats', () => {
    const old = dates(4).map((d) => moveOn(d, '10:00:00', 1, 1))
    const moved = learnRule([...old, moveOn('2026-12-05', '09:00:00', 1, 1)], ZONE, REAL_CLOCK)
    expect(moved).toMatchObject({ secondOfDay: 9 * 3600, moves: 1, previous: { daysInAdvance: 30, secondOfDay: TEN } })
    expect(moved?.confidence).toBeLessThan(0.6)
    const twice = learnRule([...old, moveOn('2026-12-05', '09:00:00', 1, 1), moveOn('2026-12-06', '09:00:00', 1, 1)], ZONE, REAL_CLOCK)
    expect(twice).toMatchObject({ secondOfDay: 9 * 3600, moves: 2 })
    expect(twice?.confidence).toBeGreaterThan(moved?.confidence ?? 1)
  })

  it('through a calendar that lags, places the rule at the earliest sighting rather than the average, and says it lags', () => {
    // Tables open at 10:00:00; the calendar shows it 20, 75 and 40 s late.
    const lags = [20, 75, 40]
    const moves = dates(3).map((d, i) => {
      const shown = instantOf(d, '10:00', ZONE) + (lags[i] ?? 0) * S
      return { from: addDays(d, 29), to: addDays(d, 30), notBefore: shown - S, notAfter: shown + S }
    })
    const rule = learnRule(moves, ZONE, REAL_CLOCK)
    expect(rule?.lagging).toBe(true)
    expect(rule?.moves).toBe(3)
    expect((rule?.secondOfDay ?? 0) - TEN).toBeGreaterThanOrEqual(19)
    expect((rule?.secondOfDay ?? 0) - TEN).toBeLessThanOrEqual(21)
    expect(rule?.confidence).toBeLessThan(0.9) // three agreeing moves without a lag: 0.9
  })

  it('learns on a compressed clock (the release contest): the venue’s day and time, whatever the real seconds', () => {
    const epoch = Date.parse('2026-12-01T00:00:00Z')
    const clock = compressedClock(epoch, 600) // a day every 10 minutes
    const opening = openingOf({ daysInAdvance: 21, secondOfDay: 8 * 3600 }, '2026-12-30', ZONE, clock)
    const move: HorizonMove = { from: '2026-12-29', to: '2026-12-30', notBefore: opening - 500, notAfter: opening + 500 }
    const rule = learnRule([move], ZONE, clock)
    expect(rule).toMatchObject({ daysInAdvance: 21 })
    expect(Math.abs((rule?.secondOfDay ?? 0) - 8 * 3600)).toBeLessThanOrEqual(144) // within a real second
  })

  it('tells a learned rule that disagrees with the venue’s notes from one that agrees', () => {
    const rule = learnRule([moveOn('2026-12-01', '10:00:00', 1, 1), moveOn('2026-12-02', '10:00:00', 1, 1)], ZONE, REAL_CLOCK)
    if (!rule) throw new Error('no rule')
    expect(disagrees(rule, { daysInAdvance: 30, secondOfDay: TEN }, REAL_CLOCK)).toBe(false)
    expect(disagrees(rule, { daysInAdvance: 30, secondOfDay: 9 * 3600 }, REAL_CLOCK)).toBe(true)
    expect(disagrees(rule, { daysInAdvance: 14, secondOfDay: TEN }, REAL_CLOCK)).toBe(true)
  })
})

describe('watching the horizon', () => {
  it('brackets a move between the last answer that showed the old day and the first that showed the new one', () => {
    let seen: HorizonSeen | null = null
    const look = (lastDay: string, at: number) => {
      const r = observeHorizon(seen, { lastDay, sentAt: at, answeredAt: at + 100 })
      seen = r.seen
      return r.move
    }
    expect(look('2026-12-31', 1_000)).toBeNull()
    expect(look('2026-12-31', 61_000)).toBeNull()
    expect(look('2026-12-30', 90_000)).toBeNull() // an older copy: no move back
    expect(look('2027-01-01', 121_000)).toEqual({ from: '2026-12-31', to: '2027-01-01', notBefore: 61_000, notAfter: 121_100 })
  })

  it('looks every minute while learning, rarely once a rule is known, and every 2 s around the instant it predicts', () => {
    const rule = learnRule(
      dates(3).map((d) => moveOn(d, '10:00:00', 1, 1)),
      ZONE,
      REAL_CLOCK,
    )
    const seen = { lastDay: addDays('2026-12-03', 30), since: instantOf('2026-12-03', '12:00', ZONE) }
    const facts = { seen, moves: [], learned: rule, stated: null, zone: ZONE, clock: REAL_CLOCK }
    const instant = instantOf('2026-12-04', '10:00', ZONE)
    expect(nextHorizonCheck({ ...facts, learned: null }, Number.POSITIVE_INFINITY, seen.since)?.at).toBe(seen.since + 60_000)
    expect(nextHorizonCheck(facts, Number.POSITIVE_INFINITY, seen.since)?.at).toBe(seen.since + 15 * 60_000)
    // Looked at just now (whoever looked): the next routine look is later, the close watch sooner.
    const lookedAt = (at: number) => ({ ...facts, seen: { ...seen, since: at - 1_000 } })
    expect(nextHorizonCheck(lookedAt(instant - 5 * 60_000), Number.POSITIVE_INFINITY, instant - 5 * 60_000)).toEqual({
      at: instant - 10_000,
      around: instant,
    })
    expect(nextHorizonCheck(lookedAt(instant - 3_000), Number.POSITIVE_INFINITY, instant - 3_000)).toEqual({
      at: instant - 1_000,
      around: instant,
    })
    expect(nextHorizonCheck(facts, instant - 60_000, instant - 3_000)).toBeNull() // nobody watches any more
    // A calendar answer a minute ago counts as a look: the next one is a minute after it.
    expect(
      nextHorizonCheck({ ...facts, learned: null, seen: { ...seen, since: instant - 30_000 } }, Number.POSITIVE_INFINITY, instant)?.at,
    ).toBe(instant + 30_000)
    // The day's release burst follows the rule; a move seen opening it adds that moment.
    const day = addDays('2026-12-04', 30)
    expect(openingsOfDay(facts, day)).toEqual([instant])
    const seenOpen = { from: addDays(day, -1), to: day, notBefore: instant - 1_000, notAfter: instant + 1_500 }
    expect(openingsOfDay({ ...facts, moves: [seenOpen] }, day)).toEqual([instant, instant + 1_500])
    expect(openingsOfDay({ ...facts, learned: null }, day)).toBeNull()
  })
})
