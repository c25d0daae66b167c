// The venue zone of each of a user's requests (the spec's `timezone`, which the contract makes
// the venues' zone), so that a page writes what belongs to a request in that zone whatever the
// viewer's: an inbox notice about a dinner in Los Angeles is dated in PT.
import { and, eq, inArray, sql } from 'drizzle-orm'
import { requests } from '../db/schema'
import { isValidTimeZone } from '../lib/zoned-time'
import type { Deps } from '../runtime/deps'

export async function requestZonesOf(deps: Pick<Deps, 'db'>, userId: string, ids: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)]
  if (unique.length === 0) return new Map()
  const rows = await deps.db
    .select({ id: requests.id, zone: sql<unknown>`json_extract(${requests.spec}, '$.timezone')` })
    .from(requests)
    .where(and(eq(requests.userId, userId), inArray(requests.id, unique)))
  return new Map(rows.flatMap((r) => (typeof r.zone === 'string' && isValidTimeZone(r.zone) ? [[r.id, r.zone] as const] : [])))
}
