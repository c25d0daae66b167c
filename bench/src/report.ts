// The printed summary of a run (the JSON file holds the same figures).
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import type { BudgetFigures } from './budget'
import type { CadenceAlertRow } from './cadence-alerts'
import type { CoalescingRow } from './coalescing'
import type { ContestRow } from './contest'
import type { CostLine } from './cost'
import type { CrashResult } from './crash'
import type { RouteLatency } from './latency'
import type { ReleaseResult } from './release'
import type { ContestDay, ReleaseLearning } from './release-contest'
import { releaseTables } from './release-report'
import type { ScaleResult } from './scale'
import { table } from './stats'

export interface BenchResults {
  startedAt: string
  machine: { cpus: number; memoryGiB: number; node: string; loadBefore: number[]; loadAfter?: number[] }
  pollIntervalSeconds: number
  durationSeconds?: number
  apiLatency?: RouteLatency[]
  cadenceAlerts?: CadenceAlertRow[]
  /** The release phase: device bookings and cloud bookings at the same instants. */
  detectionReleaseInstant?: ReleaseResult[]
  /** The release contest, per release day, and how well and how soon the rules were learned. */
  releaseContest?: ContestDay[]
  releaseLearning?: ReleaseLearning
  coalescing?: CoalescingRow[]
  crash?: CrashResult[]
  scale?: ScaleResult[]
  /** Catch rate against the best possible, per mean take time and calendar lag. */
  contest?: ContestRow[]
  costModel?: CostLine[]
  /** The budget, and the busiest 1 s and 10 s the platform saw over the run. */
  budget?: BudgetFigures
  /** Set when phases ran separately (BENCH_MERGE=on). */
  runs?: BenchRun[]
}

/** One run of some phases, when runs are merged into one file. */
export interface BenchRun {
  phases: string[]
  commit: string
  startedAt: string
  durationSeconds: number | undefined
  loadBefore: number[]
  loadAfter: number[] | undefined
}

/** This run's figures over those already in `file`, with a line for this run in `runs`. */
export function merged(file: string, results: BenchResults, phases: string[]): BenchResults {
  const earlier: BenchResults | null = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
  const run: BenchRun = {
    phases,
    commit,
    startedAt: results.startedAt,
    durationSeconds: results.durationSeconds,
    loadBefore: results.machine.loadBefore,
    loadAfter: results.machine.loadAfter,
  }
  return { ...earlier, ...results, runs: [...(earlier?.runs ?? []), run] }
}

export function printTables(r: BenchResults): string {
  const load = (l: number[] | undefined) => (l ? l.join(' / ') : '?')
  const out: string[] = [
    `\nTablewatch benchmark, ${r.startedAt}, ${r.machine.cpus} CPUs, poll interval ${r.pollIntervalSeconds} s, ${r.durationSeconds ?? '?'} s`,
    `load average (1 / 5 / 15 min) before ${load(r.machine.loadBefore)}, after ${load(r.machine.loadAfter)}`,
  ]
  if (r.apiLatency) {
    out.push(
      table(
        'API latency, 50 concurrent clients (ms; /health measured beside each route)',
        ['route', 'calls', 'p50', 'p99', '/health p50', '/health p99', 'ratio p50', 'ratio p99', 'non-2xx'],
        r.apiLatency.map((x) => [x.route, x.calls, x.p50, x.p99, x.healthP50, x.healthP99, x.ratioP50, x.ratioP99, x.non2xx]),
      ),
    )
  }
  if (r.cadenceAlerts) {
    out.push(
      table(
        'Default cadence (60 s): table appears → alert, and the check that saw it → alert (s)',
        ['requests on the venue-day', 'tables', 'alerts seen / expected', 'p50', 'p95', 'poll → alert p50', 'poll → alert p95'],
        r.cadenceAlerts.map((c) => [
          c.requests,
          c.drops,
          `${c.alertsSeen} / ${c.alertsExpected}`,
          c.alertP50s,
          c.alertP95s,
          c.pollToAlertP50s,
          c.pollToAlertP95s,
        ]),
      ),
    )
  }
  out.push(...releaseTables(r))
  if (r.coalescing) {
    out.push(
      table(
        'Coalescing (platform find calls per polling interval)',
        ['scenario', 'requests', 'venue-days', 'find calls', 'intervals', 'finds/interval', 'per venue-day'],
        r.coalescing.map((c) => [
          c.scenario,
          c.requests,
          c.venueDays,
          c.findCalls,
          c.intervalsMeasured,
          c.findsPerInterval,
          c.findsPerVenueDayPerInterval,
        ]),
      ),
    )
  }
  if (r.crash) {
    out.push(
      table(
        'Crash and restart of wrangler dev (SIGKILL, same --persist-to)',
        [
          'scenario',
          'outcome',
          'alarm ran (s after restart)',
          'late vs schedule (ms)',
          'outcome (s after restart)',
          'alerts',
          'bookings',
          'book calls',
        ],
        r.crash.map((c) => [c.scenario, c.outcome, c.alarmResumedAfterS, c.lateByMs, c.outcomeAfterS, c.alerts, c.bookings, c.bookCalls]),
      ),
    )
  }
  if (r.contest && r.contest.length > 0) {
    out.push(
      table(
        'Contest: tables booked before another diner took them',
        ['mean take s', 'calendar lag s', 'drops', 'caught', 'catch rate', 'best possible', 'cadence s', 'caught after p50 s'],
        r.contest.map((c) => [
          c.meanTakeSeconds,
          c.calendarLagSeconds,
          c.drops,
          c.caught,
          c.catchRate,
          c.bestPossibleRate,
          c.cadenceSeconds,
          c.caughtAfterP50s,
        ]),
      ),
    )
  }
  if (r.scale && r.scale.length > 0) {
    const steps = r.scale
    const row = (label: string, value: (x: ScaleResult) => string | number | null) => [label, ...steps.map(value)]
    out.push(
      table(
        'Scale (one local workerd)',
        ['measure', ...steps.map((x) => `step ${x.target}`)],
        [
          row('active requests / venue-days', (x) => `${x.active} / ${x.venueDays}`),
          row('target reached', (x) => (x.reached ? 'yes' : `NO: ${x.shortBecause}`)),
          row('platform calls per hour', (x) => x.platformCallsPerHour),
          row('  calendar / find / details / book / other', (x) => {
            const k = x.platformCallsPerHourByKind
            return `${k.calendar} / ${k.find} / ${k.details} / ${k.book} / ${k.other}`
          }),
          row('achieved cadence per venue-day p50 / p95 (s; venue-days checked)', (x) => {
            return `${x.achievedCadenceP50s} / ${x.achievedCadenceP95s} (${x.venueDaysChecked})`
          }),
          row('poll → alert p50 (s; alerts / tables opened)', (x) => `${x.pollToAlertP50s} (${x.alertsSeen} / ${x.alertDrops})`),
          row('created in the step / seconds', (x) => `${x.created} / ${x.createSeconds}`),
          row('poll lag p99 while creating (ms) / settled s', (x) => `${x.creatingPollLagP99ms} / ${x.settledSeconds}`),
          row(
            'availability alarm runs (checked the platform; failed) in observed s',
            (x) => `${x.polls} (${x.checkedPolls}; ${x.failedPolls}) in ${x.observedSeconds}`,
          ),
          row('availability poll lag p50 / p99 / max (ms)', (x) => `${x.pollLagP50ms} / ${x.pollLagP99ms} / ${x.pollLagMaxMs}`),
          row('rows written per idle poll (median / max)', (x) => `${x.idlePollRowsWrittenMedian} / ${x.idlePollRowsWrittenMax}`),
          row('API get p99 / list p99 / /health p99 (ms)', (x) => `${x.api.getP99} / ${x.api.listP99} / ${x.api.healthP99}`),
          row('API p99 / /health p99 (unanswered)', (x) => `${x.api.ratioP99} (${x.api.unanswered})`),
          row('request invocations per idle request-hour', (x) => x.requestInvocationsPerIdleRequestHour),
          row(
            'DO invocations per hour: all / without API reads',
            (x) => `${x.totalInvocationsPerHour} / ${x.backgroundInvocationsPerHour}`,
          ),
          row('workerd runtime RSS MiB (max)', (x) => x.rssMiBMax),
        ],
      ),
    )
    const last = steps.at(-1)
    if (last) {
      out.push(
        table(
          `Durable Object invocations per hour at ${last.active} requests (mean wall ms)`,
          ['class.method', 'per hour', 'mean ms'],
          Object.entries(last.invocationsPerHour)
            .sort(([, a], [, b]) => b - a)
            .map(([k, v]) => [k, v, last.meanWallMs[k] ?? null]),
        ),
      )
    }
  }
  if (r.budget) {
    const b = r.budget
    out.push(
      table(
        'Platform call budget: busiest windows the platform saw over the run',
        [
          'budget calls/s',
          'max in any 1 s',
          'max in any 10 s',
          'bound (10 × budget × 1.1)',
          'service: max 1 s / 10 s',
          'late grants given back',
          'seconds with calls',
        ],
        [
          [
            b.callsPerSecond,
            b.maxCallsInAnySecond,
            b.maxCallsInAny10Seconds,
            b.bound10Seconds,
            b.service ? `${b.service.maxCallsInAnySecond} / ${b.service.maxCallsInAny10Seconds}` : null,
            b.service?.lateGrants ?? null,
            b.secondsWithCalls,
          ],
        ],
      ),
    )
  }
  if (r.costModel) {
    out.push(
      table(
        'Cost per month on Workers Paid (USD, from measured invocation counts)',
        ['design', 'invocations/h', 'active s/h', 'rows/h', 'requests', 'duration', 'rows', 'total'],
        r.costModel.map((c) => [
          c.label,
          c.invocationsPerHour,
          Math.round(c.activeSecondsPerHour),
          c.rowsWrittenPerHour,
          c.requestsUsd,
          c.durationUsd,
          c.rowsUsd,
          c.totalUsd,
        ]),
      ),
    )
  }
  return out.join('\n')
}
