// Scale: many active requests in one local workerd. Creates alert_only requests (idle: late
// windows the generated inventory never reaches) with concurrent clients up to each step's
// count of active requests, spread as users would spread them: request i watches open venue
// i mod 33 on day 1 + (i div 33) mod 60, so 10,000 requests share about 2,000 venue-days. Then,
// while the venue-days' alarms are due, it watches for a few minutes: availability poll lag (fire
// time against the time each poll asked for), storage rows written per idle poll, the Durable
// Object invocations (by class and method, from the do-call lines), the resident memory of the
// workerd runtime, and the API beside /health, called by 10 clients all along (each reads one of
// its requests, then its list of 20, then /health, then pauses half a second).
import { z } from 'zod'
import { type Api, dayIn, lateSpec } from './api'
import { sleep } from './processes'
import { mapLimit, median, percentile, round } from './stats'
import type { CallLine } from './trace'
import type { BenchUser } from './users'
import type { World } from './world'

export interface ScaleResult {
  target: number
  active: number
  /** Whether the step reached its target of active requests, and if not, why (never silently). */
  reached: boolean
  shortBecause: string | null
  created: number
  createSeconds: number
  /** Availability poll lag p99 while the step's requests were being created (ms). */
  creatingPollLagP99ms: number | null
  /** The pause between the last create call and the observed window. */
  settledSeconds: number
  venueDays: number
  observedSeconds: number
  /** Availability polls seen, and the lag of each against the time it asked for. */
  polls: number
  /** Of those, the runs that checked the platform (a find, or the calendar's answer); the rest only waited for the budget or primed a subscriber. */
  checkedPolls: number
  failedPolls: number
  pollLagP50ms: number | null
  pollLagP99ms: number | null
  pollLagMaxMs: number | null
  idlePolls: number
  idlePollRowsWrittenMedian: number | null
  idlePollRowsWrittenMax: number | null
  /** Durable Object invocations per hour, by `class.method`, and their mean wall time. */
  invocationsPerHour: Record<string, number>
  meanWallMs: Record<string, number>
  /** Request-object invocations per active request per hour that no API call caused. */
  requestInvocationsPerIdleRequestHour: number
  /** Every invocation per hour, and those without the API probe's reads. */
  totalInvocationsPerHour: number
  backgroundInvocationsPerHour: number
  api: ApiProbe
  rssMiBMax: number | null
  /** Calls the platform (the sandbox) answered in the observed window, per hour, all and by kind. */
  platformCallsPerHour: number
  platformCallsPerHourByKind: Record<CallKind, number>
  /** Per venue-day, the median gap between its checks of the platform; p50 and p95 over venue-days. */
  achievedCadenceP50s: number | null
  achievedCadenceP95s: number | null
  /** Venue-days with a check in the window (a gap is measured for these only). */
  venueDaysChecked: number
  /** Tables opened in watched venue-days during the window: from the check that saw each to its alert. */
  alertDrops: number
  alertsSeen: number
  pollToAlertP50s: number | null
}

type CallKind = 'calendar' | 'find' | 'details' | 'book' | 'other'
const KINDS: readonly CallKind[] = ['calendar', 'find', 'details', 'book']

export interface ApiProbe {
  calls: number
  unanswered: number
  getP50: number | null
  getP99: number | null
  listP50: number | null
  listP99: number | null
  healthP50: number | null
  healthP99: number | null
  /** The slower route's p99 over /health's p99 in the same run. */
  ratioP99: number | null
}

interface Options {
  steps: number[]
  createBudgetMs: number
  /** Create calls in flight at once. */
  createConcurrency: number
  /** The pause after creating, so the window sees the steady schedule rather than the catch-up. */
  settleMs: number
  observeMs: number
  log: (line: string) => void
}

const DAYS = 60
const PROBE_CLIENTS = 10
const PARTY = 8
/** Tables opened during each observed window, at watched venue-days, for poll → alert. */
const ALERT_DROPS = 20
/** Invocations an API call causes (reads of the request, last_checked_at), not the watching. */
const API_DRIVEN = new Set(['request.ensure', 'request.read', 'availability.lastChecked'])

export async function scale(world: World, users: BenchUser[], options: Options): Promise<ScaleResult[]> {
  const activeNow = () =>
    world.d1.query("SELECT count(*) AS n FROM requests WHERE status = 'active'", z.object({ n: z.number() }))[0]?.n ?? 0
  const results: ScaleResult[] = []
  const started = Date.now()
  const venues = world.openVenues
  const mine: { token: string; id: string }[] = []
  let next = 0 // the next request index: each user holds 20
  for (const target of options.steps) {
    const stepStarted = Date.now()
    const wanted = Math.max(0, target - activeNow())
    let created = 0
    await mapLimit(
      Array.from({ length: wanted }, (_, k) => next + k),
      options.createConcurrency,
      async (i) => {
        if (Date.now() - started > options.createBudgetMs) return
        const user = users[Math.floor(i / 20)]
        const venue = venues[i % venues.length]
        if (!user || !venue) return
        const day = dayIn(venue.zone, 1 + (Math.floor(i / venues.length) % DAYS))
        const res = await world.api.create(user.token, lateSpec(venue.id, venue.zone, day, PARTY, 'alert_only'))
        if (res.status === 201 && res.body.id) {
          created += 1
          mine.push({ token: user.token, id: res.body.id })
        }
        if (created % 1000 === 0 && created > 0) options.log(`scale: ${created} of ${wanted} created`)
      },
    )
    next += wanted
    const createdAt = Date.now()
    const createSeconds = (createdAt - stepStarted) / 1000
    const creatingPollLagP99ms = percentile(world.traces.lagsBetween(stepStarted, createdAt), 99)
    const venueDays = Math.min(next, venues.length * DAYS)
    options.log(
      `scale: ${target} requests on ${venueDays} venue-days; settling ${options.settleMs / 1000} s, observing ${options.observeMs / 1000} s`,
    )
    await sleep(options.settleMs)
    const settledSeconds = Math.round(options.settleMs / 1000)
    const active = activeNow()
    const reached = active >= target
    const shortBecause = reached
      ? null
      : Date.now() - started > options.createBudgetMs
        ? `creating stopped at the ${options.createBudgetMs / 60_000}-minute create budget (BENCH_CREATE_MINUTES) with ${active} active`
        : `${wanted - created} of ${wanted} create calls were refused or failed`
    if (shortBecause) options.log(`scale: step ${target} NOT reached: ${shortBecause}`)
    const step = { target, active, reached, shortBecause, created, createSeconds, creatingPollLagP99ms, settledSeconds, venueDays }
    results.push(await observe(world, mine, step, options))
  }
  return results
}

async function observe(
  world: World,
  mine: { token: string; id: string }[],
  step: Pick<
    ScaleResult,
    'target' | 'active' | 'reached' | 'shortBecause' | 'created' | 'createSeconds' | 'creatingPollLagP99ms' | 'settledSeconds' | 'venueDays'
  >,
  options: Options,
): Promise<ScaleResult> {
  const from = Date.now()
  const until = from + options.observeMs
  const rss: number[] = []
  const callsBefore = await world.control.calls()
  const probe = probeApi(world.api, mine, until)
  const drops = dropTables(world, step.venueDays, from + options.observeMs / 3)
  while (Date.now() < until) {
    const sample = world.service.workerdRssMiB()
    if (sample !== null) rss.push(sample)
    await sleep(5_000)
  }
  const api = await probe
  const callsAfter = await world.control.calls()
  const callsIn = (kind: string) =>
    (callsAfter[kind as keyof typeof callsAfter] ?? 0) - (callsBefore[kind as keyof typeof callsBefore] ?? 0)
  const allCalls = Object.keys(callsAfter).reduce((sum, kind) => sum + callsIn(kind), 0)
  const byKind = Object.fromEntries(KINDS.map((k) => [k, callsIn(k)])) as Record<CallKind, number>
  const cadences = [...world.traces.checkGapsBetween(from, until).values()]
  const alerted = await alertsOf(world, await drops)
  const hours = (until - from) / 3_600_000
  const polls = world.traces.pollsBetween(from, until)
  const idle = polls.filter((p) => p.ok && !p.changed && p.pushed === 0)
  const lags = world.traces.lagsBetween(from, until)
  const calls = world.traces.callsBetween(from, until)
  const byMethod = groupBy(calls, (c) => `${c.c}.${c.m}`)
  const perHour = (n: number) => Math.round(n / hours)
  const background = calls.filter((c) => !API_DRIVEN.has(`${c.c}.${c.m}`))
  const requestBackground = background.filter((c) => c.c === 'request').length
  return {
    ...step,
    observedSeconds: Math.round(options.observeMs / 1000),
    polls: polls.length,
    checkedPolls: polls.filter((p) => p.checked).length,
    failedPolls: polls.filter((p) => !p.ok).length,
    pollLagP50ms: percentile(lags, 50),
    pollLagP99ms: percentile(lags, 99),
    pollLagMaxMs: percentile(lags, 100),
    idlePolls: idle.length,
    idlePollRowsWrittenMedian: median(idle.map((p) => p.rowsWritten)),
    idlePollRowsWrittenMax: percentile(
      idle.map((p) => p.rowsWritten),
      100,
    ),
    invocationsPerHour: Object.fromEntries([...byMethod].map(([k, v]) => [k, perHour(v.length)])),
    meanWallMs: Object.fromEntries([...byMethod].map(([k, v]) => [k, round(v.reduce((a, c) => a + c.ms, 0) / v.length, 1) ?? 0])),
    requestInvocationsPerIdleRequestHour: round(requestBackground / step.active / hours, 3) ?? 0,
    totalInvocationsPerHour: perHour(calls.length),
    backgroundInvocationsPerHour: perHour(background.length),
    api,
    rssMiBMax: rss.length > 0 ? round(Math.max(...rss)) : null,
    platformCallsPerHour: perHour(allCalls),
    platformCallsPerHourByKind: {
      calendar: perHour(byKind.calendar),
      find: perHour(byKind.find),
      details: perHour(byKind.details),
      book: perHour(byKind.book),
      other: perHour(allCalls - KINDS.reduce((sum, k) => sum + byKind[k], 0)),
    },
    achievedCadenceP50s: round((percentile(cadences, 50) ?? Number.NaN) / 1000, 1),
    achievedCadenceP95s: round((percentile(cadences, 95) ?? Number.NaN) / 1000, 1),
    venueDaysChecked: cadences.length,
    alertDrops: alerted.drops,
    alertsSeen: alerted.fromPoll.length,
    pollToAlertP50s: round((percentile(alerted.fromPoll, 50) ?? Number.NaN) / 1000, 2),
  }
}

interface Dropped {
  id: string
  venueId: number
  day: string
  time: string
  at: number
}

/**
 * Opens ALERT_DROPS tables, one at a time over the first third of the window, at venue-days the
 * step's requests watch (inside their 22:30–23:30 window), so poll → alert is measured at scale.
 */
async function dropTables(world: World, venueDays: number, by: number): Promise<Dropped[]> {
  const venues = world.openVenues
  const dropped: Dropped[] = []
  for (let k = 0; k < ALERT_DROPS; k++) {
    await sleep(Math.max(0, (by - Date.now()) / (ALERT_DROPS - k)))
    const i = Math.floor(Math.random() * Math.min(venueDays, venues.length * DAYS))
    const venue = venues[i % venues.length]
    if (!venue) continue
    const day = dayIn(venue.zone, 1 + (Math.floor(i / venues.length) % DAYS))
    const time = `23:${String(k + 10).padStart(2, '0')}`
    const table = { venueId: venue.id, day, time, seating: 'Dining Room', partyMin: PARTY, partyMax: PARTY }
    if (await world.control.addSlot(table))
      dropped.push({ id: `${venue.id}:${day}:${PARTY}`, venueId: venue.id, day, time, at: Date.now() })
  }
  return dropped
}

/** For each table dropped: from the first check that fired after it to its first alert (any request). */
async function alertsOf(world: World, dropped: Dropped[]): Promise<{ drops: number; fromPoll: number[] }> {
  const rows = z.object({ groups: z.string().nullable(), created_at: z.number() })
  const groups = z.array(z.object({ venueId: z.number(), date: z.string(), tables: z.array(z.object({ time: z.string() })) }))
  const from = Math.min(...dropped.map((d) => d.at))
  const seen = world.d1.query(`SELECT groups, created_at FROM notifications WHERE kind = 'table_found' AND created_at >= ${from}`, rows)
  const fromPoll = dropped.flatMap((d) => {
    const check = world.traces.firstCheckAfter(d.id, d.at)
    const alertAt = seen
      .filter((r) =>
        groups
          .parse(JSON.parse(r.groups ?? '[]'))
          .some((g) => g.venueId === d.venueId && g.date === d.day && g.tables.some((t) => t.time === d.time)),
      )
      .map((r) => r.created_at)
      .sort((a, b) => a - b)[0]
    return check && alertAt !== undefined ? [alertAt - check.firedAt] : []
  })
  await Promise.all(dropped.map((d) => world.control.removeSlot({ venueId: d.venueId, day: d.day, time: d.time, seating: 'Dining Room' })))
  return { drops: dropped.length, fromPoll }
}

/** 10 clients read their requests (one, then a page) and /health, over and over, until `until`. */
async function probeApi(api: Api, mine: { token: string; id: string }[], until: number): Promise<ApiProbe> {
  const get: number[] = []
  const list: number[] = []
  const health: number[] = []
  let unanswered = 0
  const note = (into: number[], r: { status: number; ms: number }) => {
    if (r.status === 0) unanswered += 1
    into.push(r.ms)
  }
  await Promise.all(
    Array.from({ length: PROBE_CLIENTS }, async (_x, c) => {
      for (let i = 0; Date.now() < until; i++) {
        const pick = mine[(c * 7919 + i * 104729) % mine.length]
        if (!pick) return
        note(get, await api.get(pick.token, pick.id))
        note(list, await api.list(pick.token))
        note(health, await api.health())
        await sleep(500)
      }
    }),
  )
  const p = (v: number[], q: number) => round(percentile(v, q))
  const slowest = Math.max(percentile(get, 99) ?? 0, percentile(list, 99) ?? 0)
  const h99 = percentile(health, 99)
  return {
    calls: get.length + list.length + health.length,
    unanswered,
    getP50: p(get, 50),
    getP99: p(get, 99),
    listP50: p(list, 50),
    listP99: p(list, 99),
    healthP50: p(health, 50),
    healthP99: p(health, 99),
    ratioP99: h99 ? round(slowest / h99, 2) : null,
  }
}

function groupBy(calls: CallLine[], key: (c: CallLine) => string): Map<string, CallLine[]> {
  const groups = new Map<string, CallLine[]>()
  for (const c of calls) {
    const group = groups.get(key(c))
    if (group) group.push(c)
    else groups.set(key(c), [c])
  }
  return groups
}
