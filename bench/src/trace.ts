// What the service prints with POLL_TRACE on, collected: a `poll-trace` line per availability
// poll (venue-day, fire time, storage rows written, next alarm) and a `do-call` line per Durable
// Object invocation (class, method, wall time).
import { z } from 'zod'

const pollLine = z.object({
  id: z.string(),
  firedAt: z.number(),
  rowsWritten: z.number(),
  ok: z.boolean(),
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

  pollsBetween(from: number, to: number): PollLine[] {
    return this.polls.filter((p) => p.firedAt >= from && p.firedAt < to)
  }

  /** Invocations that ended in [from, to), by `class.method`. */
  callsBetween(from: number, to: number): CallLine[] {
    return this.calls.filter((c) => c.at >= from && c.at < to)
  }
}
