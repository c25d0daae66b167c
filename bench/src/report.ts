// The printed summary of a run (the JSON file holds the same figures).
import type { CoalescingRow } from './coalescing'
import type { CrashResult } from './crash'
import type { DetectionResult } from './detection'
import type { RouteLatency } from './latency'
import type { ScaleResult } from './scale'
import { table } from './stats'

export interface BenchResults {
  startedAt: string
  machine: { cpus: number; memoryGiB: number; node: string }
  pollIntervalSeconds: number
  durationSeconds?: number
  apiLatency?: RouteLatency[]
  detectionDefaultCadence?: DetectionResult
  detectionReleaseInstant?: DetectionResult & { releaseAt: string }
  coalescing?: CoalescingRow[]
  crash?: CrashResult[]
  scale?: ScaleResult[]
}

export function printTables(r: BenchResults): string {
  const out: string[] = [
    `\nTablewatch benchmark, ${r.startedAt}, ${r.machine.cpus} CPUs, poll interval ${r.pollIntervalSeconds} s, ${r.durationSeconds ?? '?'} s`,
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
  const detection = [
    ['default cadence', r.detectionDefaultCadence] as const,
    ['release instant', r.detectionReleaseInstant] as const,
  ].flatMap(([label, d]) =>
    d ? [[label, d.drops, d.alertP50s, d.alertP95s, d.bookP50s, d.bookP95s, d.alertsMissing, d.bookingsMissing]] : [],
  )
  if (detection.length > 0) {
    const header = ['when', 'drops', 'alert p50', 'alert p95', 'book p50', 'book p95', 'no alert', 'no booking']
    out.push(table('Detection latency (s, table appears → alert recorded / booking submitted)', header, detection))
  }
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
  if (r.scale && r.scale.length > 0) {
    const steps = r.scale
    const row = (label: string, value: (x: ScaleResult) => string | number | null) => [label, ...steps.map(value)]
    out.push(
      table(
        'Scale (one local workerd)',
        ['measure', ...steps.map((x) => `step ${x.target}`)],
        [
          row('active requests', (x) => x.active),
          row('created in the step / seconds', (x) => `${x.created} / ${x.createSeconds}`),
          row('alarm runs observed / expected', (x) => `${x.polls} / ${x.expectedPolls} in ${x.observedSeconds} s`),
          row('poll lag p50 / p99 / max (ms)', (x) => `${x.pollLagP50ms} / ${x.pollLagP99ms} / ${x.pollLagMaxMs}`),
          row('idle polls (state unchanged)', (x) => x.idlePolls),
          row(
            'rows written per idle poll (median / mean / max)',
            (x) => `${x.idlePollRowsWrittenMedian} / ${x.idlePollRowsWrittenMean} / ${x.idlePollRowsWrittenMax}`,
          ),
          row('workerd runtime RSS MiB (max / end)', (x) => `${x.rssMiBMax} / ${x.rssMiBEnd}`),
          row('sampled users with a failed platform check while observed', (x) => x.sampledWithFailedChecks),
        ],
      ),
    )
  }
  return out.join('\n')
}
