// Queries on browsers' Web Push subscriptions. Every query that reads or removes one
// names its user too, so no user can see or remove another's.
import { and, count, desc, eq, sql } from 'drizzle-orm'
import type { Db } from './client'
import { pushSubscriptions } from './schema'

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect

/** What storing a subscription did; `taken`: another user registered that endpoint first. */
export type StoredPush = 'stored' | 'over_cap' | 'taken'

/**
 * Stores a browser's subscription for `row.userId`, unless the user has push on in `max` other
 * browsers already, or another user registered the endpoint: nothing changed then. One
 * statement, so subscriptions sent in parallel cannot pass the cap together (D1 runs each
 * statement alone; a count read before the insert let 25 parallel ones all in). The same
 * endpoint (the same browser) is one row, and it belongs to the user who registered it:
 * subscribing again replaces that user's own row, even at the cap; another user naming it changes
 * nothing (before, it moved to them and its owner's alerts stopped).
 */
export async function storePushSubscription(
  db: Db,
  row: Omit<PushSubscriptionRow, 'lastSuccessAt' | 'lastFailureAt' | 'lastFailure'>,
  max: number,
): Promise<StoredPush> {
  const stored = await db.all<{ id: string }>(sql`
    insert into push_subscriptions (id, user_id, endpoint_hash, sealed, iv, label, created_at)
    select ${row.id}, ${row.userId}, ${row.endpointHash}, ${row.sealed}, ${row.iv}, ${row.label}, ${row.createdAt}
    where (select count(*) from push_subscriptions where user_id = ${row.userId} and endpoint_hash <> ${row.endpointHash}) < ${max}
    on conflict (endpoint_hash) do update set
      id = excluded.id, sealed = excluded.sealed, iv = excluded.iv, label = excluded.label,
      created_at = excluded.created_at, last_success_at = null, last_failure_at = null, last_failure = null
    where push_subscriptions.user_id = excluded.user_id
    returning id`)
  if (stored.length > 0) return 'stored'
  const holder = await findPushSubscriptionByEndpoint(db, row.endpointHash)
  return holder && holder.userId !== row.userId ? 'taken' : 'over_cap'
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

export async function findPushSubscriptionByEndpoint(db: Db, endpointHash: string): Promise<PushSubscriptionRow | undefined> {
  return db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpointHash, endpointHash)).get()
}

/**
 * Points a stored subscription at the browser's renewed one, if it still names the old endpoint
 * (one of two parallel renewals wins; the other changes nothing). A row of the same user already
 * holding the new endpoint gives way, as when subscribing again: one endpoint, one row. Another
 * user's row never does: the renewal changes nothing then.
 */
export async function renewPushSubscription(
  db: Db,
  id: string,
  oldEndpointHash: string,
  renewed: Pick<PushSubscriptionRow, 'endpointHash' | 'sealed' | 'iv'>,
): Promise<boolean> {
  const rows = await db.all<{ id: string }>(sql`
    update or replace push_subscriptions
    set endpoint_hash = ${renewed.endpointHash}, sealed = ${renewed.sealed}, iv = ${renewed.iv},
      last_success_at = null, last_failure_at = null, last_failure = null
    where id = ${id} and endpoint_hash = ${oldEndpointHash}
      and not exists (
        select 1 from push_subscriptions as held
        where held.endpoint_hash = ${renewed.endpointHash}
          and held.user_id <> (select owner.user_id from push_subscriptions as owner where owner.id = ${id})
      )
    returning id`)
  return rows.length > 0
}
