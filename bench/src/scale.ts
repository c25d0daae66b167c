// Scale: many active requests in one local workerd. Creates alert_only requests (idle: late
// windows the generated inventory never reaches) with 50 concurrent clients up to each step's
// count of active requests (or until the creation budget runs out), then watches a few polling
// intervals: poll lag (alarm fire time vs the time it was set for, from the poll-trace lines),
// storage rows written per idle poll, and the resident memory of the workerd runtime.
import { z } from 'zod'
import { dayIn, lateSpec, UNANSWERED } from './api'
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
  /** Alarm runs seen, and how many one run per active request per interval would be. */
  polls: number
  expectedPolls: number
  pollLagP50ms: number | null
  pollLagP99ms: number | null
  pollLagMaxMs: number | null
  /** Runs that changed nothing in the request's state, and the storage rows each wrote. */
  idlePolls: number
  idlePollRowsWrittenMedian: number | null
  idlePollRowsWrittenMean: number | null
  idlePollRowsWrittenMax: number | null
  rssMiBMax: number | null
  rssMiBEnd: number | null
  /** Of a sample of the step's requests, how many traced a platform call that failed (overload). */
  sampledWithFailedChecks: string
}

interface Options {
  steps: number[]
  createBudgetMs: number
  intervalMs: number
  /** Polling intervals watched after each step: more after the last one. */
  observeIntervals: (step: number) => number
  log: (line: string) => void
}

export async function scale(world: World, users: BenchUser[], options: Options): Promise<ScaleResult[]> {
  const activeNow = () =>
    world.d1.query("SELECT count(*) AS n FROM requests WHERE status = 'active'", z.object({ n: z.number() }))[0]?.n ?? 0
  const results: ScaleResult[] = []
  const started = Date.now()
  let next = 0 // the next request index: each user holds 20
  for (const target of options.steps) {
    const stepStarted = Date.now()
    const wanted = Math.max(0, target - activeNow())
    let created = 0
    await mapLimit(
      Array.from({ length: wanted }, (_, k) => next + k),
      50,
      async (i) => {
        if (Date.now() - started > options.createBudgetMs) return
        const user = users[Math.floor(i / 20)]
        const venue = world.openVenues[i % world.openVenues.length]
        if (!user || !venue) return
        const day = dayIn(venue.zone, 1 + (Math.floor(i / world.openVenues.length) % 10))
        const res = await world.api.create(user.token, lateSpec(venue.id, venue.zone, day, 8, 'alert_only'))
        if (res.status === 201) created += 1
        if (created % 1000 === 0 && created > 0) options.log(`scale: ${created} of ${wanted} created`)
      },
    )
    next += wanted
    const createSeconds = (Date.now() - stepStarted) / 1000
    const observedFrom = Date.now()
    const result = await observe(world, target, activeNow(), created, createSeconds, options)
    results.push({ ...result, sampledWithFailedChecks: await failedChecks(world, users, next - wanted, wanted, observedFrom) })
  }
  return results
}

const listedTraces = z.object({ requests: z.array(z.object({ trace: z.array(z.object({ at: z.string(), message: z.string() })) })) })

/**
 * Reads the requests of 20 of the step's users: how many traced a failed platform check while
 * the step was observed (not during creation), and what the platform did ("did not answer" is a
 * timeout or 5xx, "asked us to slow down" a 429).
 */
async function failedChecks(world: World, users: BenchUser[], first: number, count: number, since: number): Promise<string> {
  const sample = Array.from({ length: Math.min(20, count) }, (_, k) => first + Math.floor((k * count) / Math.min(20, count)))
  const reasons = new Map<string, number>()
  const lists = await mapLimit(sample, 5, async (i) => {
    const user = users[Math.floor(i / 20)]
    if (!user) return 'unanswered'
    const page = await world.api.list(user.token)
    const parsed = listedTraces.safeParse(page.body)
    if (page.status === UNANSWERED || !parsed.success) return 'unanswered'
    const failures = parsed.data.requests
      .flatMap((r) => r.trace)
      .filter((t) => Date.parse(t.at) >= since && t.message.startsWith('Could not check'))
    for (const f of failures) {
      const why = /the platform (.*)\.$/.exec(f.message)?.[1] ?? f.message
      reasons.set(why, (reasons.get(why) ?? 0) + 1)
    }
    return failures.length > 0 ? 'failed' : 'fine'
  })
  const unanswered = lists.filter((l) => l === 'unanswered').length
  const why = [...reasons].map(([reason, n]) => `${reason}: ${n}`).join(', ')
  return `${lists.filter((l) => l === 'failed').length} of ${sample.length}${why ? ` (${why})` : ''}${unanswered > 0 ? `; ${unanswered} lists unanswered in 60 s` : ''}`
}

async function observe(
  world: World,
  target: number,
  active: number,
  created: number,
  createSeconds: number,
  options: Options,
): Promise<Omit<ScaleResult, 'sampledWithFailedChecks'>> {
  const rss: number[] = []
  const from = Date.now()
  const intervals = options.observeIntervals(target)
  const until = from + intervals * options.intervalMs
  while (Date.now() < until) {
    const sample = world.service.workerdRssMiB()
    if (sample !== null) rss.push(sample)
    await sleep(5_000)
  }
  const lags = world.traces.lagsBetween(from, until)
  const writes = world.traces.idleRunsBetween(from, until).map((p) => p.rowsWritten)
  return {
    target,
    active,
    created,
    createSeconds: round(createSeconds) ?? 0,
    observedSeconds: Math.round((until - from) / 1000),
    polls: world.traces.polls.filter((p) => p.firedAt >= from && p.firedAt < until).length,
    expectedPolls: Math.round(active * intervals),
    pollLagP50ms: percentile(lags, 50),
    pollLagP99ms: percentile(lags, 99),
    pollLagMaxMs: percentile(lags, 100),
    idlePolls: writes.length,
    idlePollRowsWrittenMedian: median(writes),
    idlePollRowsWrittenMean: writes.length > 0 ? round(writes.reduce((a, b) => a + b, 0) / writes.length, 3) : null,
    idlePollRowsWrittenMax: percentile(writes, 100),
    rssMiBMax: rss.length > 0 ? round(Math.max(...rss)) : null,
    rssMiBEnd: round(rss.at(-1) ?? null),
  }
}
