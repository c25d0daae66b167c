// The service's one platform client, wired so operators see its problems: every firewall/CDN
// block and every refused API key is counted in D1 (besides the client's `platform.blocked` /
// `platform.operator_fault` log lines), and /health shows the counts.

import { budgetedFetcher } from '../budget/budgeted-fetcher'
import { dbOf } from '../db/client'
import { countPlatformProblem, type PlatformProblemKind, platformProblemCounts } from '../db/platform-problems'
import type { Platform, PlatformProblem } from '../platform/api'
import { platformFromEnv } from '../platform/from-env'

const detailOf = (p: PlatformProblem) => `${p.path} ${p.kind === 'blocked' ? p.signal : `HTTP ${p.status}`}`

/**
 * Every call passes the service-wide budget, one lease per HTTP call, unless the
 * caller leases for itself (`callerLeases`: the availability and calendar objects, which know
 * their tier and cadence). `bookingFor`: the request whose booking the calls make, so that the
 * budget starts every request's first table before any request's second; `verifying`: the calls
 * verify a booking already made, and wait for the bookings under way.
 */
export function servicePlatform(
  env: Cloudflare.Env,
  options: { callerLeases?: boolean; bookingFor?: string; verifying?: boolean } = {},
): Platform {
  const db = dbOf(env.DB)
  const direct = env.PLATFORM ?? { fetch: (request: Request) => fetch(request) }
  return platformFromEnv(env, {
    fetcher: options.callerLeases
      ? direct
      : budgetedFetcher(direct, env, {
          ...(options.bookingFor ? { holder: options.bookingFor } : {}),
          verifying: options.verifying === true,
        }),
    onProblem: (p) => countPlatformProblem(db, p.kind, detailOf(p), Date.now()),
  })
}

export interface ProblemFigure {
  count: number
  last_at: string | null
  /** The last one's path and signal (or status), e.g. `/4/find cloudfront`. */
  last: string | null
}

/** Counts since the database was created, per kind, for /health. */
export async function platformHealth(env: Cloudflare.Env): Promise<Record<PlatformProblemKind, ProblemFigure>> {
  const rows = await platformProblemCounts(dbOf(env.DB))
  const figure = (kind: PlatformProblemKind): ProblemFigure => {
    const row = rows.find((r) => r.kind === kind)
    return row
      ? { count: row.count, last_at: new Date(row.lastAt).toISOString(), last: row.lastDetail }
      : { count: 0, last_at: null, last: null }
  }
  return { blocked: figure('blocked'), operator_fault: figure('operator_fault') }
}
