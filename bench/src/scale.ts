// Scale: many active requests in one local workerd. Creates alert_only requests (idle: late
// windows the generated inventory never reaches) with 50 concurrent clients until the target
// number is active or the creation budget runs out, then watches a few polling intervals:
// poll lag (alarm fire time vs the time it was set for, from the poll-trace lines), storage
// rows written per idle poll, and the workerd process's resident memory.
import { z } from 'zod'
import { dayIn, lateSpec } from './api'
import { sleep } from './processes'
import { mapLimit, median, percentile, round } from './stats'
import type { BenchUser } from './users'
import type { World } from './world'

export interface ScaleResult {
  target: number
  active: number
  created: number
  createSeconds: number
  observedSeconds: number
  polls: number
  pollLagP50ms: number | null
  pollLagP99ms: number | null
  pollLagMaxMs: number | null
  idlePollRowsWrittenMedian: number | null
  idlePollRowsWrittenMean: number | null
  rssMiBMax: number | null
  rssMiBEnd: number | null
}

export async function scale(world: World, users: BenchUser[], target: number, options: { createBudgetMs: number; observeMs: number }): Promise<ScaleResult> {
  const activeNow = () => world.d1.query("SELECT count(*) AS n FROM requests WHERE status = 'active'", z.object({ n: z.number() }))[0]?.n ?? 0
  const wanted = Math.max(0, target - activeNow())
  const venues = world.openVenues
  const started = Date.now()
  let created = 0
  const slots = Array.from({ length: wanted }, (_, i) => i)
  await mapLimit(slots, 50, async (i) => {
    if (Date.now() - started > options.createBudgetMs) return
    const user = users[Math.floor(i / 20)]
    const venue = venues[i % venues.length]
    if (!user || !venue) return
    const day = dayIn(venue.zone, 1 + (Math.floor(i / venues.length) % 10))
    const res = await world.api.create(user.token, lateSpec(venue.id, venue.zone, day, 8, 'alert_only'))
    if (res.status === 201) created += 1
  })
  const createSeconds = (Date.now() - started) / 1000
  const rss: number[] = []
  const from = Date.now() + 5_000
  const until = from + options.observeMs
  while (Date.now() < until) {
    const sample = world.service.workerdRssMiB()
    if (sample !== null) rss.push(sample)
    await sleep(5_000)
  }
  const lags = world.traces.lagsBetween(from, until)
  const writes = world.traces.idleWritesBetween(from, until)
  return {
    target,
    active: activeNow(),
    created,
    createSeconds: round(createSeconds) ?? 0,
    observedSeconds: Math.round(options.observeMs / 1000),
    polls: lags.length,
    pollLagP50ms: percentile(lags, 50),
    pollLagP99ms: percentile(lags, 99),
    pollLagMaxMs: percentile(lags, 100),
    idlePollRowsWrittenMedian: median(writes),
    idlePollRowsWrittenMean: writes.length > 0 ? round(writes.reduce((a, b) => a + b, 0) / writes.length, 3) : null,
    rssMiBMax: rss.length > 0 ? round(Math.max(...rss)) : null,
    rssMiBEnd: round(rss.at(-1) ?? null),
  }
}
