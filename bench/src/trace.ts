// What the service prints with POLL_TRACE on, collected: a `poll-trace` line per availability
// poll (venue-day, fire time, storage rows written, next alarm) and a `do-call` line per Durable
// Object invocation (class, method, wall time).
import { z } from 'zod'
import { median } from './stats'

const pollLine = z.object({
  id: z.string(),
  firedAt: z.number(),
  rowsWritten: z.number(),
  ok: z.boolean(),
  /** The platform was checked (a find or the calendar's answer); absent in older lines: true. */
  checked: z.boolean().default(true),
  changed: z.boolean(),
  nextAt: z.number().nullable(),
  pushed: z.number(),
})
export type PollLine = z.infer<typeof pollLine> & { at: number }

const callLine = z.object({ c: z.string(), m: z.string(), ms: z.number(), id: z.string().optional() })
export type CallLine = z.infer<typeof callLine> & { at: number }

export class Traces {
  readonly polls: PollLine[] = []
  readonly calls: CallLine[] = []

  service(line: string): void {
    const poll = /poll-trace (\{.*\})/.exec(line)?.[1]
    if (poll) {
      const parsed = pollLine.safeParse(JSON.parse(poll))
      if (parsed.success) this.polls.push({ ...parsed.data, at: Date.now() })
      return
    }
    const call = /do-call (\{.*\})/.exec(line)?.[1]
    if (call) {
      const parsed = callLine.safeParse(JSON.parse(call))
      if (parsed.success) this.calls.push({ ...parsed.data, at: Date.now() })
    }
  }

  /**
   * Each availability poll's lag (fired − scheduled), from consecutive lines of one venue-day,
   * for polls that fired in [from, to). A poll pulled in early (a new subscriber) counts as 0.
   */
  lagsBetween(from: number, to: number): number[] {
    const scheduled = new Map<string, number>()
    const lags: number[] = []
    for (const p of this.polls) {
      const expected = scheduled.get(p.id)
      if (expected !== undefined && p.firedAt >= from && p.firedAt < to) lags.push(Math.max(0, p.firedAt - expected))
      if (p.nextAt !== null) scheduled.set(p.id, p.nextAt)
    }
    return lags
  }

  /**
   * The cadence each venue-day achieved: per venue-day (only `ids`, when given), the median gap
   * between consecutive checks of the platform, for checks that fired in [from, to). The gap may
   * start before `from`, so a venue-day checked once in the window still counts.
   */
  checkGapsBetween(from: number, to: number, ids?: ReadonlySet<string>): Map<string, number> {
    const last = new Map<string, number>()
    const gaps = new Map<string, number[]>()
    for (const p of this.polls) {
      if (!p.checked || (ids && !ids.has(p.id))) continue
      const before = last.get(p.id)
      if (before !== undefined && p.firedAt >= from && p.firedAt < to) gaps.set(p.id, [...(gaps.get(p.id) ?? []), p.firedAt - before])
      last.set(p.id, p.firedAt)
    }
    return new Map([...gaps].map(([id, g]) => [id, median(g) ?? 0]))
  }

  /** The first check of venue-day `id` that fired at or after `at`. */
  firstCheckAfter(id: string, at: number): PollLine | undefined {
    return this.polls.find((p) => p.id === id && p.checked && p.firedAt >= at)
  }

  pollsBetween(from: number, to: number): PollLine[] {
    return this.polls.filter((p) => p.firedAt >= from && p.firedAt < to)
  }

  /** Invocations that ended in [from, to), by `class.method`. */
  callsBetween(from: number, to: number): CallLine[] {
    return this.calls.filter((c) => c.at >= from && c.at < to)
  }
}
