// The platform's side of the budget (docs/decisions/budget.md): the sandbox counts every call by the second it
// arrived, by its own clock, so the busiest 1 s and 10 s are exactly what the platform saw over
// the run, whichever call made them (a once-a-second sample of its totals, as before, made a
// window of ten samples span eleven or twelve seconds under load: the figures erred high). The
// service's own view (its budget object's busiest second and 10 s of the last hour, /health) is
// kept beside it.
import { z } from 'zod'
import { DEFAULT_USER_AGENT } from '../../src/platform/user-agent'
import type { World } from './world'

export interface BudgetFigures {
  callsPerSecond: number
  maxCallsInAnySecond: number
  maxCallsInAny10Seconds: number
  /** The hard bound: no 10 s window above 10 × budget × 1.1. */
  bound10Seconds: number
  /** The budget object's own figures over the last hour (calls it granted), and the grants given back since it started (they reached their callers late). */
  service: { maxCallsInAnySecond: number; maxCallsInAny10Seconds: number; callsLastHour: number; lateGrants: number } | null
  /** The seconds in which the platform saw at least one call. */
  secondsWithCalls: number
}

const healthBudget = z.object({
  budget: z.object({
    callsPerSecond: z.number(),
    maxCallsInAnySecond: z.number(),
    maxCallsInAny10Seconds: z.number(),
    calls: z.number(),
    lateGrants: z.number(),
  }),
})

export function sampleCalls(world: World): { stop(): Promise<BudgetFigures> } {
  const since = Date.now()
  return {
    async stop() {
      // The service's calls (its User-Agent): its users' paired devices call the platform too, from their own networks.
      const perSecond = new Map(await world.control.callsPerSecond(since, DEFAULT_USER_AGENT))
      const health = healthBudget.safeParse((await world.api.health()).body)
      const budget = health.success ? health.data.budget : null
      return {
        callsPerSecond: budget?.callsPerSecond ?? Number.NaN,
        maxCallsInAnySecond: busiest(perSecond, 1),
        maxCallsInAny10Seconds: busiest(perSecond, 10),
        bound10Seconds: budget ? Math.round(10 * budget.callsPerSecond * 1.1 * 10) / 10 : Number.NaN,
        service: budget
          ? {
              maxCallsInAnySecond: budget.maxCallsInAnySecond,
              maxCallsInAny10Seconds: budget.maxCallsInAny10Seconds,
              callsLastHour: budget.calls,
              lateGrants: budget.lateGrants,
            }
          : null,
        secondsWithCalls: perSecond.size,
      }
    },
  }
}

/** The most calls in any `seconds` consecutive seconds. */
export function busiest(perSecond: Map<number, number>, seconds: number): number {
  let most = 0
  for (const first of perSecond.keys()) {
    let window = 0
    for (let k = 0; k < seconds; k++) window += perSecond.get(first + k) ?? 0
    most = Math.max(most, window)
  }
  return most
}
