// Queries on web sessions. Only the SHA-256 of the cookie value is stored (sessions.id_hash).
import { and, eq, gt, lt, lte, or } from 'drizzle-orm'
import type { Db } from './client'
import { sessions, users } from './schema'

export type SessionRow = typeof sessions.$inferSelect
export type SessionWithUser = { session: SessionRow; user: typeof users.$inferSelect }

export async function insertSession(db: Db, row: SessionRow): Promise<void> {
  await db.insert(sessions).values(row)
}

/**
 * The session and its user, if the session exists, has not expired at `now` and was last seen
 * less than `idleMs` ago.
 */
export async function findLiveSession(db: Db, idHash: string, now: number, idleMs: number): Promise<SessionWithUser | undefined> {
  return db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, now), gt(sessions.lastSeenAt, now - idleMs)))
    .get()
}

/** Marks the session as seen now, unless that was recorded less than `granularityMs` ago. */
export async function touchSession(db: Db, idHash: string, now: number, granularityMs: number): Promise<void> {
  await db
    .update(sessions)
    .set({ lastSeenAt: now })
    .where(and(eq(sessions.idHash, idHash), lt(sessions.lastSeenAt, now - granularityMs)))
}

/** Every session of the user ends (signing out everywhere). */
export async function deleteSessionsOfUser(db: Db, userId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId))
}

export async function deleteSession(db: Db, idHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.idHash, idHash))
}

/** Sweeps a user's expired and idle sessions; called at sign-in so the table does not grow forever. */
export async function deleteExpiredSessions(db: Db, userId: string, now: number, idleMs: number): Promise<void> {
  await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), or(lte(sessions.expiresAt, now), lte(sessions.lastSeenAt, now - idleMs))))
}
