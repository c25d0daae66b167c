// Queries on web sessions. Only the SHA-256 of the cookie value is stored (sessions.id_hash).
import { and, eq, gt, lte } from 'drizzle-orm'
import type { Db } from './client'
import { sessions, users } from './schema'

export type SessionRow = typeof sessions.$inferSelect
export type SessionWithUser = { session: SessionRow; user: typeof users.$inferSelect }

export async function insertSession(db: Db, row: SessionRow): Promise<void> {
  await db.insert(sessions).values(row)
}

/** The session and its user, if the session exists and has not expired at `now`. */
export async function findLiveSession(db: Db, idHash: string, now: number): Promise<SessionWithUser | undefined> {
  return db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, now)))
    .get()
}

export async function deleteSession(db: Db, idHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.idHash, idHash))
}

/** Sweeps a user's expired sessions; called at sign-in so the table does not grow forever. */
export async function deleteExpiredSessions(db: Db, userId: string, now: number): Promise<void> {
  await db.delete(sessions).where(and(eq(sessions.userId, userId), lte(sessions.expiresAt, now)))
}
