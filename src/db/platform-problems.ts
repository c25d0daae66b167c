// Counts of platform problems operators must see (blocks, a refused API key), one row per kind.
import { sql } from 'drizzle-orm'
import type { Db } from './client'
import { platformProblems } from './schema'

export type PlatformProblemRow = typeof platformProblems.$inferSelect
export type PlatformProblemKind = PlatformProblemRow['kind']

export async function countPlatformProblem(db: Db, kind: PlatformProblemKind, detail: string, now: number): Promise<void> {
  await db
    .insert(platformProblems)
    .values({ kind, count: 1, firstAt: now, lastAt: now, lastDetail: detail })
    .onConflictDoUpdate({
      target: platformProblems.kind,
      set: { count: sql`${platformProblems.count} + 1`, lastAt: now, lastDetail: detail },
    })
}

export async function platformProblemCounts(db: Db): Promise<PlatformProblemRow[]> {
  return db.select().from(platformProblems)
}
