// How often a venue-day is polled: release bursts, far dates, several subscribers, failures.
import { describe, expect, it } from 'vitest'
import {
  BURST_FAST_MS,
  BURST_SLOW_MS,
  backoffAfter,
  baseIntervalFrom,
  burstIntervalAt,
  bursting,
  intervalAt,
  MIN_INTERVAL_MS,
  nextBurstEdge,
  nextPollAt,
  releaseAhead,
  released,
} from '../../src/watching/cadence'
import type { WatchPlan } from '../../src/watching/schedule'
import { NOW } from './fixtures'

const R = NOW + 3_600_000 // a release instant an hour from now
const plain: WatchPlan = { phases: [{ until: null, intervalMs: 60_000 }], releases: [] }
const releasing: WatchPlan = { phases: [{ until: null, intervalMs: 60_000 }], releases: [R] }

describe('release bursts', () => {
  it.each([
    [-2_001, null],
    [-2_000, BURST_FAST_MS],
    [0, BURST_FAST_MS],
    [9_999, BURST_FAST_MS],
    [10_000, BURST_SLOW_MS],
    [119_999, BURST_SLOW_MS],
    [120_000, null],
  ])('polls at the burst rate %i ms from the release instant: %s', (offset, interval) => {
    expect(burstIntervalAt([R], R + offset)).toBe(interval)
  })

  it('pulls the next poll forward to 2 s before a release instant', () => {
    expect(nextPollAt([releasing], R - 30_000)).toBe(R - 2_000)
    expect(nextPollAt([releasing], R - 1_000)).toBe(R - 500)
    expect(nextPollAt([releasing], R + 30_000)).toBe(R + 35_000)
    expect(nextPollAt([releasing], R + 200_000)).toBe(R + 260_000)
  })

  it('counts as bursting only inside a burst', () => {
    expect(bursting([plain, releasing], R)).toBe(true)
    expect(bursting([plain, releasing], R - 60_000)).toBe(false)
  })

  it('polls in the budget’s burst tier only from the instant: the lead before it is an ordinary poll', () => {
    expect(released([plain, releasing], R - 1_000)).toBe(false)
    expect(bursting([plain, releasing], R - 1_000)).toBe(true)
    expect(released([plain, releasing], R)).toBe(true)
    expect(released([plain, releasing], R + 119_999)).toBe(true)
    expect(released([plain, releasing], R + 120_000)).toBe(false)
  })

  it('never lets a wait run past the start of a burst or its instant', () => {
    expect(nextBurstEdge([plain, releasing], R - 60_000)).toBe(R - 2_000)
    expect(nextBurstEdge([plain, releasing], R - 2_000)).toBe(R)
    expect(nextBurstEdge([plain, releasing], R)).toBeNull()
    expect(nextBurstEdge([plain], R)).toBeNull()
  })

  it('names the release instant to announce when the next run leads into its burst, not before', () => {
    expect(releaseAhead([plain, releasing], R - 120_000, R - 62_000)).toBeNull()
    expect(releaseAhead([plain, releasing], R - 120_000, R - 2_000)).toBe(R)
    expect(releaseAhead([plain, releasing], R - 1_000, R)).toBe(R)
    expect(releaseAhead([plain, releasing], R, R + 500)).toBeNull()
  })
})

describe('the interval of a venue-day', () => {
  it('takes the fastest interval any subscriber needs', () => {
    const slow: WatchPlan = { phases: [{ until: null, intervalMs: 300_000 }], releases: [] }
    expect(nextPollAt([slow, plain], NOW)).toBe(NOW + 60_000)
    expect(nextPollAt([slow], NOW)).toBe(NOW + 300_000)
  })

  it('follows the phases of a plan: slower while the date is far off', () => {
    const plan: WatchPlan = {
      phases: [
        { until: NOW + 1_000, intervalMs: 300_000 },
        { until: NOW + 2_000, intervalMs: 120_000 },
        { until: null, intervalMs: 60_000 },
      ],
      releases: [],
    }
    expect(intervalAt(plan, NOW)).toBe(300_000)
    expect(intervalAt(plan, NOW + 1_500)).toBe(120_000)
    expect(intervalAt(plan, NOW + 5_000)).toBe(60_000)
  })

  it('never goes below 15 s outside bursts, whatever the deployment says', () => {
    expect(baseIntervalFrom({ POLL_INTERVAL_SECONDS: '1' })).toBe(MIN_INTERVAL_MS)
    expect(baseIntervalFrom({})).toBe(60_000)
    expect(baseIntervalFrom({ POLL_INTERVAL_SECONDS: 'soon' })).toBe(60_000)
  })

  it('backs off after failures: twice the interval, doubling, at most 2 minutes, at least what the platform asked', () => {
    expect(backoffAfter(1, 60_000)).toBe(120_000)
    expect(backoffAfter(3, 60_000)).toBe(120_000)
    expect(backoffAfter(1, BURST_FAST_MS)).toBe(1_000)
    expect(backoffAfter(3, BURST_FAST_MS)).toBe(4_000)
    expect(backoffAfter(1, BURST_FAST_MS, 30_000)).toBe(30_000)
  })
})
