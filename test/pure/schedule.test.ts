// A request's own watching schedule: its venue-days, the plan of each, its subscription.
import { describe, expect, it } from 'vitest'
import { planFor, subscriptionFor, venueDaysOf } from '../../src/watching/schedule'
import { DAY, NOW, specOf, VENUE } from './fixtures'

const DAY_MS = 86_400_000
const rule = { venueId: VENUE, timeZone: 'America/New_York', daysInAdvance: 14, time: '09:00' }

describe('the venue-days a request watches', () => {
  it('watches every venue and date whose window is still ahead', () => {
    const spec = specOf({ venue_ids: [VENUE, 60106], dates: ['2026-11-22', DAY] })
    expect(venueDaysOf(spec, NOW)).toEqual([
      { venueId: VENUE, day: DAY, partySize: 2 },
      { venueId: 60106, day: DAY, partySize: 2 },
    ])
  })
})

describe('the plan of a venue-day', () => {
  const spec = specOf({ latest_time: '21:00' })
  const windowEnd = Date.parse(`${DAY}T21:00:00-05:00`)

  it('polls 5× slower more than 45 days ahead, 2× more than 14 days ahead, then at the interval', () => {
    const plan = planFor(spec, { venueId: VENUE, day: DAY, partySize: 2 }, [], 60_000)
    expect(plan.phases).toEqual([
      { until: windowEnd - 45 * DAY_MS, intervalMs: 300_000 },
      { until: windowEnd - 14 * DAY_MS, intervalMs: 120_000 },
      { until: null, intervalMs: 60_000 },
    ])
  })

  it("bursts at the venue's release instant for that date: days in advance, at the venue's local time", () => {
    const plan = planFor(spec, { venueId: VENUE, day: DAY, partySize: 2 }, [rule], 60_000)
    expect(plan.releases).toEqual([Date.parse('2026-11-21T09:00:00-05:00')])
    expect(planFor(spec, { venueId: 60106, day: DAY, partySize: 2 }, [rule], 60_000).releases).toEqual([])
  })

  it('ends a subscription at the expiry, or at the end of the window if that comes first', () => {
    const venueDay = { venueId: VENUE, day: DAY, partySize: 2 }
    expect(subscriptionFor('sr_x', spec, NOW + 1_000, venueDay, [], 60_000).until).toBe(NOW + 1_000)
    expect(subscriptionFor('sr_x', spec, windowEnd + 1_000, venueDay, [], 60_000).until).toBe(windowEnd)
  })
})
