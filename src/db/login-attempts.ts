// Failed sign-in counters per key (an email or a client address), in fixed windows.
import { eq, sql } from 'drizzle-orm'
import type { Db } from './client'
import { loginAttempts } from './schema'

export type LoginAttemptRow = typeof loginAttempts.$inferSelect

export async function findLoginAttempts(db: Db, key: string): Promise<LoginAttemptRow | undefined> {
  return db.select().from(loginAttempts).where(eq(loginAttempts.key, key)).get()
}

/** Counts one failure; a window older than `windowMs` starts over at this failure. */
export async function recordLoginFailure(db: Db, key: string, now: number, windowMs: number): Promise<void> {
  const windowOver = sql`${loginAttempts.windowStart} <= ${now - windowMs}`
  await db
    .insert(loginAttempts)
    .values({ key, failures: 1, windowStart: now })
    .onConflictDoUpdate({
      target: loginAttempts.key,
      set: {
        failures: sql`case when ${windowOver} then 1 else ${loginAttempts.failures} + 1 end`,
        windowStart: sql`case when ${windowOver} then ${now} else ${loginAttempts.windowStart} end`,
      },
    })
}

export async function clearLoginAttempts(db: Db, key: string): Promise<void> {
  await db.delete(loginAttempts).where(eq(loginAttempts.key, key))
}
