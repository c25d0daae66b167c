// Queries on the in-app inbox (notifications) and the mail outbox.
import { and, count, desc, eq, gt, gte, inArray, isNotNull, isNull } from 'drizzle-orm'
import type { Db } from './client'
import { notifications, outbox } from './schema'

export type NotificationRow = typeof notifications.$inferSelect
export type OutboxRow = typeof outbox.$inferSelect
export type NewNotification = Omit<typeof notifications.$inferInsert, 'id' | 'readAt'>

/** Adds a notification once per (user, dedupeKey); returns false when it already existed. */
export async function insertNotification(db: Db, row: NewNotification): Promise<boolean> {
  const inserted = await db
    .insert(notifications)
    .values(row)
    .onConflictDoNothing({ target: [notifications.userId, notifications.dedupeKey] })
    .returning({ id: notifications.id })
  return inserted.length > 0
}

/** D1 binds at most 100 parameters per statement: 10 rows of 8 columns per insert. */
const ROWS_PER_INSERT = 10

/**
 * Adds several notifications in one round trip, each once per (user, dedupeKey); returns the
 * dedupe keys that were new.
 */
export async function insertNotifications(db: Db, rows: NewNotification[]): Promise<Set<string>> {
  const inserts = []
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    inserts.push(
      db
        .insert(notifications)
        .values(rows.slice(i, i + ROWS_PER_INSERT))
        .onConflictDoNothing({ target: [notifications.userId, notifications.dedupeKey] })
        .returning({ dedupeKey: notifications.dedupeKey }),
    )
  }
  const [first, ...rest] = inserts
  if (!first) return new Set()
  const results = await db.batch([first, ...rest])
  return new Set(results.flat().map((r) => r.dedupeKey))
}

export async function listNotifications(db: Db, userId: string, limit = 100, offset = 0): Promise<NotificationRow[]> {
  return db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit)
    .offset(offset)
}

export async function countNotifications(db: Db, userId: string): Promise<number> {
  const row = await db.select({ n: count() }).from(notifications).where(eq(notifications.userId, userId)).get()
  return row?.n ?? 0
}

export async function countUnreadNotifications(db: Db, userId: string): Promise<number> {
  const row = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .get()
  return row?.n ?? 0
}

export async function markAllNotificationsRead(db: Db, userId: string, now: number): Promise<void> {
  await db
    .update(notifications)
    .set({ readAt: now })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
}

export async function insertOutboxEmail(db: Db, row: Omit<typeof outbox.$inferInsert, 'id'>): Promise<void> {
  // The worker's clock, not SQLite's column default: `listOutboxTo` compares it with the worker's.
  await db.insert(outbox).values({ createdAt: Date.now(), ...row })
}

export async function listOutbox(db: Db, userId: string, limit = 100): Promise<OutboxRow[]> {
  return db.select().from(outbox).where(eq(outbox.userId, userId)).orderBy(desc(outbox.createdAt), desc(outbox.id)).limit(limit)
}

/** Mails to one address since a time, newest first: the local sign-up page's view of its own mail. */
export async function listOutboxTo(db: Db, toAddress: string, since: number, limit = 5): Promise<OutboxRow[]> {
  return db
    .select()
    .from(outbox)
    .where(and(eq(outbox.toAddress, toAddress), gte(outbox.createdAt, since)))
    .orderBy(desc(outbox.createdAt), desc(outbox.id))
    .limit(limit)
}

/** The alerts sent about one request, newest first (the request page's "Alerts sent"). */
export async function listNotificationsOfRequest(db: Db, userId: string, requestId: string): Promise<NotificationRow[]> {
  return db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.requestId, requestId)))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
}

/** How many notifications of these kinds the user got after `since` (the daily cap's count). */
export async function countNotificationsSince(db: Db, userId: string, kinds: string[], since: number): Promise<number> {
  const row = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), inArray(notifications.kind, kinds), gt(notifications.createdAt, since)))
    .get()
  return row?.n ?? 0
}

/** The table alerts (those with groups) about these requests of the user, newest first, at most `limit`. */
export async function listTableAlertsOfRequests(db: Db, userId: string, requestIds: readonly string[], limit = 500) {
  if (requestIds.length === 0) return []
  return db
    .select({ requestId: notifications.requestId, groups: notifications.groups, createdAt: notifications.createdAt, id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), inArray(notifications.requestId, [...requestIds]), isNotNull(notifications.groups)))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit)
}
