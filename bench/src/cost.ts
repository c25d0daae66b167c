// What watching 10,000 active requests costs per month on Cloudflare's published Workers Paid
// prices (Durable Objects: requests, duration, SQLite rows written), before and after the
// watcher redesign, from invocation counts the benchmark measured. Everything is per hour of
// watching, times 730 hours; a request's own life (create, approve, expire: a handful of writes)
// costs the same in both designs and is left out.
import type { ScaleResult } from './scale'
import { round } from './stats'

export const PRICES = {
  /** Workers Paid, per month, with the allowances below. */
  basePerMonth: 5,
  requestsPerMillion: 0.15,
  requestsIncluded: 1_000_000,
  gbSecondsPerMillion: 12.5,
  gbSecondsIncluded: 400_000,
  rowsWrittenPerMillion: 1,
  rowsWrittenIncluded: 50_000_000,
  /** Duration is billed for 128 MB per object while it is active (wall clock). */
  gb: 0.128,
}
const HOURS_PER_MONTH = 730

export interface CostInputs {
  label: string
  requests: number
  invocationsPerHour: number
  /** Sum over invocations of their wall time, per hour, in seconds. */
  activeSecondsPerHour: number
  rowsWrittenPerHour: number
  source: string
}

export interface CostLine extends CostInputs {
  requestsUsd: number
  durationUsd: number
  rowsUsd: number
  totalUsd: number
}

export function monthly(inputs: CostInputs): CostLine {
  const over = (used: number, included: number, perMillion: number) => (Math.max(0, used - included) / 1e6) * perMillion
  const requestsUsd = over(inputs.invocationsPerHour * HOURS_PER_MONTH, PRICES.requestsIncluded, PRICES.requestsPerMillion)
  const gbSeconds = inputs.activeSecondsPerHour * PRICES.gb * HOURS_PER_MONTH
  const durationUsd = over(gbSeconds, PRICES.gbSecondsIncluded, PRICES.gbSecondsPerMillion)
  const rowsUsd = over(inputs.rowsWrittenPerHour * HOURS_PER_MONTH, PRICES.rowsWrittenIncluded, PRICES.rowsWrittenPerMillion)
  const r = (x: number) => round(x, 2) ?? 0
  return {
    ...inputs,
    requestsUsd: r(requestsUsd),
    durationUsd: r(durationUsd),
    rowsUsd: r(rowsUsd),
    totalUsd: r(PRICES.basePerMonth + requestsUsd + durationUsd + rowsUsd),
  }
}

/**
 * The old watcher, measured at commit 8c31914 (bench/results of 2026-11-21): with 2,000 requests
 * on schedule, 3,897 request alarm runs in 120 s, i.e. 58.5 per request per hour. Each run was
 * one request-object invocation and one call to the venue-day's availability object (the
 * benchmark's requests watched one venue-day each), and wrote one row (its next alarm).
 */
export const OLD_RUNS_PER_REQUEST_HOUR = (3_897 / 2_000 / 120) * 3_600

/** Before and after for the requests of one scale step (the old design scaled linearly in requests). */
export function costModel(step: ScaleResult): CostLine[] {
  const hours = step.observedSeconds / 3_600
  const wall = (key: string) => step.meanWallMs[key] ?? 0
  const after = Object.entries(step.invocationsPerHour).filter(
    ([k]) => !k.endsWith('.ensure') && !k.endsWith('.read') && !k.endsWith('.lastChecked'),
  )
  const activeSeconds = after.reduce((sum, [k, n]) => sum + (n * wall(k)) / 1000, 0)
  const pollsPerHour = step.polls / hours
  const runs = OLD_RUNS_PER_REQUEST_HOUR * step.active
  return [
    monthly({
      label: 'before (a poll per request)',
      requests: step.active,
      invocationsPerHour: Math.round(runs * 2),
      // Wall time of the old runs, taken as the new design's own figures: a request alarm that
      // asked the platform through the availability object ≈ one availability poll, and the
      // call answered from memory ≈ a last-checked read.
      activeSecondsPerHour: (runs * (wall('availability.alarm') + wall('availability.lastChecked'))) / 1000,
      rowsWrittenPerHour: Math.round(runs),
      source: `${round(OLD_RUNS_PER_REQUEST_HOUR, 1)} alarm runs per request-hour (measured at 8c31914), 2 invocations and 1 row each`,
    }),
    monthly({
      label: 'after (a poll per venue-day, pushed)',
      requests: step.active,
      invocationsPerHour: step.backgroundInvocationsPerHour,
      activeSecondsPerHour: activeSeconds,
      rowsWrittenPerHour: Math.round(pollsPerHour * (step.idlePollRowsWrittenMedian ?? 1)),
      source: `measured: ${step.backgroundInvocationsPerHour} invocations/h (no API reads), ${Math.round(pollsPerHour)} polls/h on ${step.venueDays} venue-days`,
    }),
  ]
}
