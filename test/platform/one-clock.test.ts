// The test, the service and the sandbox read one clock: on an ordinary run, and on the run a year
// ahead (npm run test:year-ahead), where Node's clock moves by libfaketime and workerd's by
// test/setup/clock-ahead.ts. If one of them stayed behind, the year-ahead run would test nothing.
import { describe, expect, inject, it } from 'vitest'
import { freshWorld } from './world'

const MINUTE = 60_000

describe('one clock', () => {
  it('reads in workerd what the Node process that started the run read', () => {
    // The config read Node's clock when the run began; the run is minutes long, a year is not.
    expect(Math.abs(Date.now() - inject('hostClockAtStart'))).toBeLessThan(30 * MINUTE)
  })

  it('is the sandbox platform’s clock too', async () => {
    const world = freshWorld()
    const before = Date.now()
    expect((await world.platform.searchVenues('pomelo')).kind).toBe('ok')
    // The sandbox counts each call under the second its own clock read.
    const seconds = (await world.control.callsPerSecond(before - MINUTE)).map(([second]) => second * 1000)
    expect(seconds.length).toBeGreaterThan(0)
    for (const at of seconds) expect(Math.abs(at - before)).toBeLessThan(MINUTE)
  })
})
