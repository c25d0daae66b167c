// The account calls the platform refused from the cloud, per user (one row per call).
import { and, eq } from 'drizzle-orm'
import type { Db } from './client'
import { cloudRefusals } from './schema'

export type RefusedCall = (typeof cloudRefusals.$inferSelect)['call']
export type CloudRefusalRow = typeof cloudRefusals.$inferSelect

export async function recordCloudRefusal(db: Db, userId: string, call: RefusedCall, signal: string, now: number): Promise<void> {
  await db
    .insert(cloudRefusals)
    .values({ userId, call, signal, firstAt: now, lastAt: now })
    .onConflictDoUpdate({ target: [cloudRefusals.userId, cloudRefusals.call], set: { signal, lastAt: now } })
}

/** The call worked from the cloud: the platform no longer refuses it. */
export async function clearCloudRefusal(db: Db, userId: string, call: RefusedCall): Promise<void> {
  await db.delete(cloudRefusals).where(and(eq(cloudRefusals.userId, userId), eq(cloudRefusals.call, call)))
}

export async function cloudRefusalsOf(db: Db, userId: string): Promise<CloudRefusalRow[]> {
  return db.select().from(cloudRefusals).where(eq(cloudRefusals.userId, userId))
}
