// The availability object's pure poll step: pace, next check, whom to tell,
// what to deliver, for a find's answer, a failure, and the calendar's "nothing open".
import { describe, expect, it } from 'vitest'
import type { Slot } from '../../src/platform/api'
import { BLOCKED_BACKOFF_MS, TELL_AFTER_FAILURES } from '../../src/watching/platform-failures'
import { decidePoll } from '../../src/watching/poll-step'
import type { WatchPlan } from '../../src/watching/schedule'
import type { Pace } from '../../src/watching/subscribers'
import { NOW } from './fixtures'

const plan: WatchPlan = { phases: [{ until: null, intervalMs: 60_000 }], releases: [] }
const subscribers = [{ plan }]
const calm: Pace = { offsetMs: 60_000, checkedAt: null, failing: null }
const slot = { venueId: 1, configId: 'c', day: '2026-12-05', time: '19:00' } as Slot
const context = { lastGood: NOW - 60_000 }

describe('decidePoll', () => {
  it('delivers a find’s slots and checks again after the interval', () => {
    const step = decidePoll(calm, subscribers, { kind: 'ok', value: [slot] }, NOW, context)
    expect(step).toEqual({ pace: { offsetMs: 60_000, checkedAt: null, failing: null }, nextAt: NOW + 60_000, slots: [slot] })
  })

  it('stretches the interval by the budget’s factor', () => {
    expect(decidePoll(calm, subscribers, { kind: 'ok', value: [] }, NOW, { ...context, stretch: 3 }).nextAt).toBe(NOW + 180_000)
  })

  it('never stretches the next check past the start of a release burst', () => {
    // A venue-day checked every 8 minutes whose day opens in 5: the burst starts 2 s before it.
    const releaseAt = NOW + 300_000
    const slow: WatchPlan = { phases: [{ until: null, intervalMs: 480_000 }], releases: [releaseAt] }
    const step = decidePoll(calm, [{ plan: slow }], { kind: 'ok', value: [] }, NOW, { ...context, stretch: 1.41 })
    expect(step.nextAt).toBe(releaseAt - 2_000)
  })

  it('never backs off a passing failure past the start of a release burst', () => {
    const releaseAt = NOW + 30_000
    const slow: WatchPlan = { phases: [{ until: null, intervalMs: 480_000 }], releases: [releaseAt] }
    const step = decidePoll(calm, [{ plan: slow }], { kind: 'unavailable', detail: 'x' }, NOW, context)
    expect(step.nextAt).toBe(releaseAt - 2_000)
  })

  it('delivers nothing on the calendar’s "nothing open", and keeps the cadence', () => {
    const step = decidePoll(calm, subscribers, { kind: 'calendar_none' }, NOW, context)
    expect(step.slots).toBeNull()
    expect(step.nextAt).toBe(NOW + 60_000)
    expect(step.tell).toBeUndefined()
  })

  it('tells of a block at once and waits long', () => {
    const step = decidePoll(calm, subscribers, { kind: 'blocked', signal: 'plain_500' }, NOW, context)
    expect(step.tell?.problem?.says).toMatch(/blocking/)
    expect(step.nextAt).toBe(NOW + BLOCKED_BACKOFF_MS)
    expect(step.pace).toMatchObject({ offsetMs: null, checkedAt: NOW - 60_000, failing: { failures: 1, told: true } })
    expect(step.slots).toBeNull()
  })

  it('tells of a passing failure only once it persists, and that it passed only if told', () => {
    let pace = calm
    const told: boolean[] = []
    for (let i = 0; i < TELL_AFTER_FAILURES; i++) {
      const step = decidePoll(pace, subscribers, { kind: 'unavailable', detail: 'x' }, NOW, context)
      told.push(step.tell !== undefined)
      pace = step.pace
    }
    expect(told).toEqual([...Array(TELL_AFTER_FAILURES - 1).fill(false), true])
    expect(decidePoll(pace, subscribers, { kind: 'ok', value: [] }, NOW, context).tell).toEqual({ problem: null })
    const once = decidePoll(calm, subscribers, { kind: 'unavailable', detail: 'x' }, NOW, context).pace
    expect(decidePoll(once, subscribers, { kind: 'ok', value: [] }, NOW, context).tell).toBeUndefined()
  })
})
