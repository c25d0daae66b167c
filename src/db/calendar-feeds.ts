// The users' calendar feeds: only the SHA-256 of each feed's secret is stored.
import { eq } from 'drizzle-orm'
import type { Db } from './client'
import { calendarFeeds } from './schema'

export type CalendarFeedRow = typeof calendarFeeds.$inferSelect

/** Makes or replaces the user's feed secret: the earlier URL stops working at once. */
export async function replaceCalendarFeed(db: Db, userId: string, tokenHash: string, now: number): Promise<void> {
  await db
    .insert(calendarFeeds)
    .values({ userId, tokenHash, createdAt: now })
    .onConflictDoUpdate({ target: calendarFeeds.userId, set: { tokenHash, createdAt: now } })
}

export async function calendarFeedOfUser(db: Db, userId: string): Promise<CalendarFeedRow | undefined> {
  const [row] = await db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, userId))
  return row
}

export async function calendarFeedByHash(db: Db, tokenHash: string): Promise<CalendarFeedRow | undefined> {
  const [row] = await db.select().from(calendarFeeds).where(eq(calendarFeeds.tokenHash, tokenHash))
  return row
}
