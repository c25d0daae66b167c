// The user's platform sign-in under way (one row per user; its secrets sealed by the caller).
import { and, eq, gt, sql } from 'drizzle-orm'
import type { Db } from './client'
import { platformSignIns } from './schema'

export type SignInRow = typeof platformSignIns.$inferSelect

/** Starts a sign-in, replacing any earlier one of the user. */
export async function saveSignIn(db: Db, row: SignInRow): Promise<void> {
  const { userId, ...rest } = row
  await db.insert(platformSignIns).values(row).onConflictDoUpdate({ target: platformSignIns.userId, set: rest })
}

/** The user's sign-in if it has not expired. */
export async function findSignIn(db: Db, userId: string, now: number): Promise<SignInRow | undefined> {
  const [row] = await db
    .select()
    .from(platformSignIns)
    .where(and(eq(platformSignIns.userId, userId), gt(platformSignIns.expiresAt, now)))
  return row
}

/**
 * Counts one try against sign-in `id`, only while it is under `max` tries: true when this try
 * may go ahead. One conditional update, so two tries sent together cannot both pass the cap.
 */
export async function takeSignInTry(db: Db, userId: string, id: string, max: number): Promise<boolean> {
  const taken = await db
    .update(platformSignIns)
    .set({ attempts: sql`${platformSignIns.attempts} + 1` })
    .where(and(eq(platformSignIns.userId, userId), eq(platformSignIns.id, id), sql`${platformSignIns.attempts} < ${max}`))
    .returning({ id: platformSignIns.id })
  return taken.length > 0
}

/** Moves sign-in `id` to the platform's challenge step (its sealed state changes with it). */
export async function advanceSignIn(db: Db, userId: string, id: string, change: Pick<SignInRow, 'step' | 'sealed' | 'iv'>): Promise<void> {
  await db
    .update(platformSignIns)
    .set(change)
    .where(and(eq(platformSignIns.userId, userId), eq(platformSignIns.id, id)))
}

/** Ends sign-in `id` (connected, or given up); a newer sign-in of the user stays. */
export async function endSignIn(db: Db, userId: string, id: string): Promise<void> {
  await db.delete(platformSignIns).where(and(eq(platformSignIns.userId, userId), eq(platformSignIns.id, id)))
}
