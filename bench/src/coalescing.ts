// Coalescing: platform find calls per polling interval, counted by the sandbox platform itself
// (its per-world call counter), for 1, 10 and 100 requests watching one venue-day, and for 100
// requests each on its own venue-day. A second service instance with its own sandbox world runs
// the scenarios one after another, so each count holds only that scenario's calls.
import { dayIn, lateSpec, type Spec } from './api'
import { sleep } from './processes'
import { mapLimit, round } from './stats'
import type { ServiceInstance, World } from './world'

export interface CoalescingRow {
  scenario: string
  requests: number
  venueDays: number
  intervalsMeasured: number
  findCalls: number
  findsPerInterval: number | null
  findsPerVenueDayPerInterval: number | null
}

const MEASURED_INTERVALS = 2

export async function coalescing(world: World, intervalMs: number): Promise<CoalescingRow[]> {
  const venues = world.openVenues
  const one = (i: number) => venues[i % venues.length]
  const scenarios = [
    { scenario: '1 request, one venue-day', specs: repeat(1, () => at(one(0), 11)) },
    { scenario: '10 requests, one venue-day', specs: repeat(10, () => at(one(1), 11)) },
    { scenario: '100 requests, one venue-day', specs: repeat(100, () => at(one(2), 11)) },
    { scenario: '100 requests, 100 venue-days', specs: repeat(100, (i) => at(one(i % 25), 1 + Math.floor(i / 25))) },
  ]
  const instance = await world.startInstance('coalescing', 'localhost', 5)
  const rows: CoalescingRow[] = []
  try {
    for (const { scenario, specs } of scenarios) rows.push({ scenario, ...(await measure(instance, specs, intervalMs)) })
  } finally {
    await instance.service.stop()
  }
  return rows
}

async function measure(instance: ServiceInstance, specs: Spec[], intervalMs: number) {
  const ids = await mapLimit(specs, 10, async (spec, i) => {
    const user = instance.bulk[Math.floor(i / 20)]
    if (!user) throw new Error('not enough users for the coalescing requests')
    return { user, id: (await instance.api.createOk(user.token, spec)).id }
  })
  // Every request polled once at creation; measure from half an interval on, for whole intervals.
  await sleep(intervalMs / 2)
  const before = (await instance.control.calls()).find ?? 0
  await sleep(MEASURED_INTERVALS * intervalMs)
  const findCalls = ((await instance.control.calls()).find ?? 0) - before
  await mapLimit(ids, 10, ({ user, id }) => instance.api.stop(user.token, id))
  const venueDays = new Set(specs.map((s) => `${s.venue_ids[0]}|${s.dates[0]}`)).size
  return {
    requests: specs.length,
    venueDays,
    intervalsMeasured: MEASURED_INTERVALS,
    findCalls,
    findsPerInterval: round(findCalls / MEASURED_INTERVALS, 2),
    findsPerVenueDayPerInterval: round(findCalls / MEASURED_INTERVALS / venueDays, 2),
  }
}

function repeat(n: number, make: (i: number) => Spec): Spec[] {
  return Array.from({ length: n }, (_, i) => make(i))
}

function at(venue: { id: number; zone: string } | undefined, days: number): Spec {
  if (!venue) throw new Error('no venue')
  return lateSpec(venue.id, venue.zone, dayIn(venue.zone, days), 2, 'alert_only')
}
