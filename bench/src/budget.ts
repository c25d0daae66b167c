// The platform's side of the budget (issue 23): the sandbox's call counts sampled once a second
// all through the run, so the busiest 1 s and 10 s are what the platform saw, whichever call
// made them. A sample interval under load can exceed a second; a window then holds a little more
// than its length (the figures err high, the safe side). The service's own view (its budget object's
// busiest second and 10 s of the last hour, /health) is kept beside it.
import { z } from 'zod'
import { sleep } from './processes'
import type { World } from './world'

export interface BudgetFigures {
  callsPerSecond: number
  maxCallsInAnySecond: number
  maxCallsInAny10Seconds: number
  /** Bound of the issue: no 10 s window above 10 × budget × 1.1. */
  bound10Seconds: number
  /** The budget object's own figures over the last hour (calls it granted). */
  service: { maxCallsInAnySecond: number; maxCallsInAny10Seconds: number; callsLastHour: number } | null
  samples: number
}

const healthBudget = z.object({
  budget: z.object({ callsPerSecond: z.number(), maxCallsInAnySecond: z.number(), maxCallsInAny10Seconds: z.number(), calls: z.number() }),
})

export function sampleCalls(world: World): { stop(): Promise<BudgetFigures> } {
  const samples: { at: number; total: number }[] = []
  let running = true
  const loop = (async () => {
    while (running) {
      const calls = await world.control.calls().catch(() => null)
      if (calls) samples.push({ at: Date.now(), total: Object.values(calls).reduce((a, n) => a + (n ?? 0), 0) })
      await sleep(1_000)
    }
  })()
  return {
    async stop() {
      running = false
      await loop
      const health = healthBudget.safeParse((await world.api.health()).body)
      const budget = health.success ? health.data.budget : null
      return {
        callsPerSecond: budget?.callsPerSecond ?? Number.NaN,
        maxCallsInAnySecond: busiest(samples, 1_000),
        maxCallsInAny10Seconds: busiest(samples, 10_000),
        bound10Seconds: budget ? Math.round(10 * budget.callsPerSecond * 1.1 * 10) / 10 : Number.NaN,
        service: budget
          ? {
              maxCallsInAnySecond: budget.maxCallsInAnySecond,
              maxCallsInAny10Seconds: budget.maxCallsInAny10Seconds,
              callsLastHour: budget.calls,
            }
          : null,
        samples: samples.length,
      }
    },
  }
}

/** The most calls between a sample and the first sample at least `windowMs` later. */
function busiest(samples: { at: number; total: number }[], windowMs: number): number {
  let most = 0
  let j = 0
  for (let i = 0; i < samples.length; i++) {
    const start = samples[i]
    if (!start) continue
    j = Math.max(j, i + 1)
    while (j < samples.length && (samples[j]?.at ?? 0) - start.at < windowMs) j++
    const end = samples[j]
    if (end) most = Math.max(most, end.total - start.total)
  }
  return most
}
