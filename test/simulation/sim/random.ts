// The simulation's only source of randomness: one seeded generator, so a seed replays a run's
// plan (which requests, specs, faults and restarts). Timing inside workerd still varies.
import { prngOf } from '../../../sandbox/src/prng'

export interface Rng {
  /** A float in [0, 1). */
  next(): number
  /** An integer in [min, max]. */
  int(min: number, max: number): number
  chance(p: number): boolean
  pick<T>(items: readonly T[]): T
  /** Between min and max distinct items, in their original order. */
  some<T>(items: readonly T[], min: number, max: number): T[]
  /** A pick weighted by the numbers beside the items. */
  weighted<T>(choices: readonly (readonly [T, number])[]): T
}

export function rngOf(seed: string): Rng {
  const next = prngOf(`simulation:${seed}`)
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1))
  const pick = <T>(items: readonly T[]): T => {
    const item = items[Math.floor(next() * items.length)]
    if (item === undefined) throw new Error('pick from an empty list')
    return item
  }
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick,
    some: (items, min, max) => {
      const wanted = Math.min(items.length, int(min, max))
      const chosen = new Set<number>()
      while (chosen.size < wanted) chosen.add(Math.floor(next() * items.length))
      return items.filter((_, i) => chosen.has(i))
    },
    weighted: (choices) => {
      const total = choices.reduce((sum, [, w]) => sum + w, 0)
      let roll = next() * total
      for (const [item, w] of choices) {
        roll -= w
        if (roll < 0) return item
      }
      return pick(choices)[0]
    },
  }
}

/** A fresh seed for a run nobody asked to replay: printed, so a failure can be replayed. */
export function freshSeed(): string {
  return crypto.randomUUID().slice(0, 8)
}

/** Runs `work` over `items` with at most `limit` at a time; results in item order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length)
  let nextIndex = 0
  const lane = async () => {
    while (nextIndex < items.length) {
      const i = nextIndex++
      results[i] = await work(items[i] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane))
  return results
}
