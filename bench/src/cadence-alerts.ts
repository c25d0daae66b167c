// Detection at the default cadence: 1, 10 and 100 alert_only requests watch one venue-day each
// (three venue-days, measured side by side). Tables appear one by one over two polling
// intervals; each alert's latency is its notification's time (D1) minus the moment its table
// appeared. The moments are spread evenly over the two intervals, each at a random point of its
// own share (stratified): the poll's phase is unknown to the benchmark, so every drop waits a
// uniformly distributed time for the next poll, and the spread keeps the median's sampling error
// small (about ±1 s with 50 drops instead of ±4 s for independent random moments).
import { z } from 'zod'
import { dayIn, lateSpec } from './api'
import { literal } from './d1'
import { sleep } from './processes'
import { mapLimit, percentile, round } from './stats'
import type { BenchUser } from './users'
import type { World } from './world'

export interface CadenceAlertRow {
  requests: number
  drops: number
  alertsExpected: number
  alertsSeen: number
  alertP50s: number | null
  alertP95s: number | null
  /**
   * From the check that first saw the table (its poll's fire time) to the alert: the service's own
   * latency. Table → alert adds the wait for that check, about half the cadence on average.
   */
  pollToAlertP50s: number | null
  pollToAlertP95s: number | null
}

const DROPS = 50
const PARTY = 3 // no other phase watches this party size

/** 22:31, 22:32 … for the k-th drop: inside the 22:30–23:30 window, one table per minute. */
const timeOf = (k: number) => {
  const minutes = 22 * 60 + 31 + k
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`
}

export async function alertsAtDefaultCadence(world: World, users: BenchUser[], intervalMs: number): Promise<CadenceAlertRow[]> {
  const sizes = [1, 10, 100]
  const scenarios = await Promise.all(
    sizes.map(async (n, s) => {
      const venue = world.openVenues[s]
      if (!venue) throw new Error('not enough venues')
      const day = dayIn(venue.zone, 3) // near: polled at the base interval
      const owners = users.slice(s * 5, s * 5 + 5)
      const ids = await mapLimit(Array.from({ length: n }), 10, async (_x, i) => {
        const owner = owners[Math.floor(i / 20)]
        if (!owner) throw new Error('not enough users for the cadence scenarios')
        return (await world.api.createOk(owner.token, lateSpec(venue.id, venue.zone, day, PARTY, 'alert_only'))).id
      })
      return { n, venue, day, ids }
    }),
  )
  await sleep(10_000) // every request subscribed and its venue-day polled once
  const span = 2 * intervalMs
  const start = Date.now()
  const dropped = new Map<string, number>() // dedupe suffix → when the table appeared
  await Promise.all(
    scenarios.flatMap(({ venue, day }) =>
      Array.from({ length: DROPS }, async (_x, k) => {
        await sleep(start + ((k + Math.random()) * span) / DROPS - Date.now())
        const at = Date.now()
        const table = { venueId: venue.id, day, time: timeOf(k), seating: 'Dining Room', partyMin: PARTY, partyMax: PARTY }
        if (!(await world.control.addSlot(table))) throw new Error(`the sandbox refused a table at ${venue.id}`)
        dropped.set(`${venue.id}|${day}|${table.time}|${table.seating}`, at)
      }),
    ),
  )
  await sleep(1.5 * intervalMs) // the last drops are seen at the next poll
  // One alert per poll (a digest, docs/decisions/alerts.md): each of its tables, by restaurant and date, is one alert seen.
  const groups = z.array(
    z.object({ venueId: z.number(), date: z.string(), tables: z.array(z.object({ time: z.string(), seating: z.string() })) }),
  )
  const rows = z.object({ request_id: z.string(), groups: z.string().nullable(), created_at: z.number() })
  const results: CadenceAlertRow[] = []
  for (const { n, ids } of scenarios) {
    const seen = world.d1.query(
      `SELECT request_id, groups, created_at FROM notifications WHERE kind = 'table_found' AND request_id IN (${ids.map(literal).join(',')})`,
      rows,
    )
    const alerts = seen.flatMap((r) =>
      groups.parse(JSON.parse(r.groups ?? '[]')).flatMap((g) =>
        g.tables.flatMap((t) => {
          const at = dropped.get(`${g.venueId}|${g.date}|${t.time}|${t.seating}`)
          const check = at === undefined ? undefined : world.traces.firstCheckAfter(`${g.venueId}:${g.date}:${PARTY}`, at)
          return at === undefined ? [] : [{ latency: r.created_at - at, fromPoll: check ? r.created_at - check.firedAt : null }]
        }),
      ),
    )
    const latencies = alerts.map((a) => a.latency)
    const fromPoll = alerts.flatMap((a) => (a.fromPoll === null ? [] : [a.fromPoll]))
    const s = (ms: number | null) => (ms === null ? null : round(ms / 1000, 2))
    results.push({
      requests: n,
      drops: DROPS,
      alertsExpected: n * DROPS,
      alertsSeen: latencies.length,
      alertP50s: s(percentile(latencies, 50)),
      alertP95s: s(percentile(latencies, 95)),
      pollToAlertP50s: s(percentile(fromPoll, 50)),
      pollToAlertP95s: s(percentile(fromPoll, 95)),
    })
  }
  return results
}
