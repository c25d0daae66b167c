// What the inbox shows of its notices beyond their stored words: the current status of their
// requests (a booked request's approval card says booked), and the best times of a table alert.
import { and, eq, inArray } from 'drizzle-orm'
import { STATUSES, type Status } from '../core/status'
import { requests } from '../db/schema'
import type { Deps } from '../runtime/deps'

/** The status of each of these requests of the user (the D1 index mirrors each object's status). */
export async function requestStatusesOf(deps: Pick<Deps, 'db'>, userId: string, ids: readonly string[]): Promise<Map<string, Status>> {
  const unique = [...new Set(ids)]
  if (unique.length === 0) return new Map()
  const rows = await deps.db
    .select({ id: requests.id, status: requests.status })
    .from(requests)
    .where(and(eq(requests.userId, userId), inArray(requests.id, unique)))
  const known = (s: string): s is Status => (STATUSES as readonly string[]).includes(s)
  return new Map(rows.flatMap((r) => (known(r.status) ? [[r.id, r.status] as const] : [])))
}
