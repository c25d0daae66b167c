// Fixed-window counters (table rate_limits). A unit is reserved with one conditional upsert, so
// any number of parallel callers can never take more than the limit: SQLite runs each statement
// alone, and the update happens only while the window has budget left (or has ended).
import { eq, sql } from 'drizzle-orm'
import type { Db } from './client'
import { rateLimits } from './schema'

export interface Budget {
  key: string
  limit: number
  windowMs: number
}

export type Reservation = { ok: true } | { ok: false; retryAt: number }

/** Takes one unit: true when the window had one left. One statement, whatever the answer. */
export async function takeUnit(db: Db, budget: Budget, now: number): Promise<boolean> {
  const windowOver = sql`${rateLimits.windowStart} <= ${now - budget.windowMs}`
  const rows = await db
    .insert(rateLimits)
    .values({ key: budget.key, count: 1, windowStart: now })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${windowOver} then 1 else ${rateLimits.count} + 1 end`,
        windowStart: sql`case when ${windowOver} then ${now} else ${rateLimits.windowStart} end`,
      },
      setWhere: sql`${windowOver} or ${rateLimits.count} < ${budget.limit}`,
    })
    .returning({ count: rateLimits.count })
  return rows.length > 0
}

/** Takes one unit, or says when the window has room again. */
export async function reserve(db: Db, budget: Budget, now: number): Promise<Reservation> {
  if (await takeUnit(db, budget, now)) return { ok: true }
  const row = await db.select({ windowStart: rateLimits.windowStart }).from(rateLimits).where(eq(rateLimits.key, budget.key)).get()
  return { ok: false, retryAt: (row?.windowStart ?? now) + budget.windowMs }
}

/** Gives back one unit (an attempt that turned out not to count). */
export async function release(db: Db, key: string): Promise<void> {
  await db
    .update(rateLimits)
    .set({ count: sql`max(${rateLimits.count} - 1, 0)` })
    .where(eq(rateLimits.key, key))
}

export async function forget(db: Db, key: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, key))
}

/**
 * Takes one unit of a smooth budget: `limit` at once, then one more every `windowMs / limit`
 * (GCRA: the row's window_start holds the time the budget is next full; count is unused). One
 * statement whatever the answer, so parallel callers never take more than the budget. A refusal
 * says when the next unit frees up, which is a sensible Retry-After: minutes, not the rest of
 * an hour-long window.
 */
export async function takeSmoothUnit(db: Db, budget: Budget, now: number): Promise<Reservation> {
  const interval = budget.windowMs / budget.limit
  const next = sql`max(${rateLimits.windowStart}, ${now}) + ${interval}`
  const rows = await db
    .insert(rateLimits)
    .values({ key: budget.key, count: 0, windowStart: now + interval })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: { windowStart: next },
      setWhere: sql`${next} - ${now} <= ${budget.windowMs}`,
    })
    .returning({ full: rateLimits.windowStart })
  if (rows.length > 0) return { ok: true }
  const row = await db.select({ full: rateLimits.windowStart }).from(rateLimits).where(eq(rateLimits.key, budget.key)).get()
  return { ok: false, retryAt: (row?.full ?? now) + interval - budget.windowMs }
}
