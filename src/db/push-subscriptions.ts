// Queries on browsers' Web Push subscriptions. Every query that reads or removes one
// names its user too, so no user can see or remove another's.
import { and, count, desc, eq } from 'drizzle-orm'
import type { Db } from './client'
import { pushSubscriptions } from './schema'

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect

/**
 * Stores a browser's subscription for `row.userId`. The same endpoint (the same browser) is one
 * row: subscribing again replaces it, even if another user had it (a browser's push goes to the
 * one user who last turned push on there).
 */
export async function upsertPushSubscription(db: Db, row: Omit<PushSubscriptionRow, 'lastSuccessAt' | 'lastFailureAt' | 'lastFailure'>) {
  await db.batch([
    db.delete(pushSubscriptions).where(eq(pushSubscriptions.endpointHash, row.endpointHash)),
    db.insert(pushSubscriptions).values(row),
  ])
}

export async function listPushSubscriptions(db: Db, userId: string): Promise<PushSubscriptionRow[]> {
  return db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(desc(pushSubscriptions.createdAt), desc(pushSubscriptions.id))
}

export async function countPushSubscriptions(db: Db, userId: string): Promise<number> {
  const row = await db.select({ n: count() }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)).get()
  return row?.n ?? 0
}

/** False when the user has no such subscription (someone else's id changes nothing). */
export async function deletePushSubscription(db: Db, userId: string, id: string): Promise<boolean> {
  const gone = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.id, id)))
    .returning({ id: pushSubscriptions.id })
  return gone.length > 0
}

export async function markPushDelivered(db: Db, id: string, at: number) {
  await db.update(pushSubscriptions).set({ lastSuccessAt: at, lastFailureAt: null, lastFailure: null }).where(eq(pushSubscriptions.id, id))
}

export async function markPushFailed(db: Db, id: string, at: number, failure: string) {
  await db.update(pushSubscriptions).set({ lastFailureAt: at, lastFailure: failure }).where(eq(pushSubscriptions.id, id))
}

/** The push service said the subscription is gone (404/410): nobody can use it again. */
export async function dropPushSubscription(db: Db, id: string) {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id))
}
