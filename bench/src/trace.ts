// What the service prints, collected: its `poll-trace` lines (one per alarm run: fire time,
// storage rows written, next alarm).
import { z } from 'zod'

const pollLine = z.object({
  id: z.string().nullable(),
  firedAt: z.number(),
  rowsWritten: z.number(),
  changed: z.boolean(),
  nextAt: z.number().nullable(),
})
export type PollLine = z.infer<typeof pollLine> & { at: number }

export class Traces {
  readonly polls: PollLine[] = []

  service(line: string): void {
    const json = /poll-trace (\{.*\})/.exec(line)?.[1]
    if (!json) return
    const parsed = pollLine.safeParse(JSON.parse(json))
    if (parsed.success) this.polls.push({ ...parsed.data, at: Date.now() })
  }

  /**
   * Each alarm run's lag (fired − scheduled), from consecutive lines of one request, for runs
   * that fired in [from, to).
   */
  lagsBetween(from: number, to: number): number[] {
    const scheduled = new Map<string, number>()
    const lags: number[] = []
    for (const p of this.polls) {
      if (p.id === null) continue
      const expected = scheduled.get(p.id)
      if (expected !== undefined && p.firedAt >= from && p.firedAt < to) lags.push(p.firedAt - expected)
      if (p.nextAt !== null) scheduled.set(p.id, p.nextAt)
    }
    return lags
  }

  /** Alarm runs in [from, to) that changed nothing in the request's state (idle polls). */
  idleRunsBetween(from: number, to: number): PollLine[] {
    return this.polls.filter((p) => p.id !== null && !p.changed && p.firedAt >= from && p.firedAt < to)
  }
}
