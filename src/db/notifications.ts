// Queries on the in-app inbox (notifications) and the mail outbox.
import { and, count, desc, eq, isNull } from 'drizzle-orm'
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

export async function listNotifications(db: Db, userId: string, limit = 100): Promise<NotificationRow[]> {
  return db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit)
}

export async function countUnreadNotifications(db: Db, userId: string): Promise<number> {
  const row = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .get()
  return row?.n ?? 0
}

export async function markNotificationRead(db: Db, userId: string, id: number, now: number): Promise<void> {
  await db
    .update(notifications)
    .set({ readAt: now })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId), isNull(notifications.readAt)))
}

export async function markAllNotificationsRead(db: Db, userId: string, now: number): Promise<void> {
  await db
    .update(notifications)
    .set({ readAt: now })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
}

export async function insertOutboxEmail(db: Db, row: Omit<typeof outbox.$inferInsert, 'id'>): Promise<void> {
  await db.insert(outbox).values(row)
}

export async function listOutbox(db: Db, userId: string, limit = 100): Promise<OutboxRow[]> {
  return db.select().from(outbox).where(eq(outbox.userId, userId)).orderBy(desc(outbox.createdAt), desc(outbox.id)).limit(limit)
}

/** The alerts sent about one request, newest first (the request page's "Alerts sent"). */
export async function listNotificationsOfRequest(db: Db, userId: string, requestId: string): Promise<NotificationRow[]> {
  return db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.requestId, requestId)))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
}
