// The release phase's and the release contest's tables in the printed summary.
import type { ReleaseResult } from './release'
import type { ContestDay, ReleaseLearning } from './release-contest'
import { table } from './stats'

/** The release figures of a run (a part of report.ts's BenchResults). */
export interface ReleaseFigures {
  detectionReleaseInstant?: ReleaseResult[]
  releaseContest?: ContestDay[]
  releaseLearning?: ReleaseLearning
}

export function releaseTables(r: ReleaseFigures): string[] {
  const out: string[] = []
  const release = r.detectionReleaseInstant
  if (release) {
    const header = ['bookings', 'tables', 'p50', 'p95', 'max', 'found by a poll p50', 'poll → submitted p50', 'missed']
    out.push(
      table(
        'Release instant: table appears → booking submitted (s)',
        header,
        release.map((d) => [
          d.bookings,
          d.drops,
          d.bookP50s,
          d.bookP95s,
          d.bookMaxS,
          d.foundByPollP50s,
          d.pollToBookingP50s,
          d.bookingsMissing,
        ]),
      ),
    )
  }
  if (r.releaseContest) {
    out.push(
      table(
        'Release contest: rules learned from the horizon, tables caught before other diners (per release day)',
        ['day', 'rules known', 'rule error p50 s', 'max s', 'mean take s', 'tables', 'caught', 'catch rate', 'best 1 Hz poller'],
        r.releaseContest.flatMap((d) =>
          d.means.map((m) => [
            d.day,
            d.rulesKnown,
            d.ruleErrorP50s,
            d.ruleErrorMaxS,
            m.meanTakeSeconds,
            m.tables,
            m.caught,
            m.catchRate,
            m.bestOneSecondPoller,
          ]),
        ),
      ),
    )
  }
  const learning = r.releaseLearning
  if (learning) {
    out.push(
      table(
        `Release learning (${learning.venues} venues, a day every ${learning.realSecondsPerDay} s)`,
        ['within 60 s after the first release', 'within 5 s after the second', 'busiest 10 s'],
        [[learning.withinSixtySecondsAfterFirst, learning.withinFiveSecondsAfterSecond, learning.maxCallsInAny10Seconds]],
      ),
    )
  }
  return out
}
