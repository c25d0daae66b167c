// The restaurant catalog: venues the service knows, with their time zone and release rule.
import { type AnyColumn, asc, eq, inArray, or, sql } from 'drizzle-orm'
import type { Db } from './client'
import { venues } from './schema'

export type VenueRow = typeof venues.$inferSelect

export async function findVenues(db: Db, ids: number[]): Promise<VenueRow[]> {
  if (ids.length === 0) return []
  return db.select().from(venues).where(inArray(venues.venueId, ids))
}

/**
 * Name, neighborhood or city containing the text, case-insensitively. instr() rather than
 * LIKE: D1 refuses LIKE patterns over 50 bytes, and queries may be 200 characters.
 */
export async function searchCatalog(db: Db, text: string, limit: number): Promise<VenueRow[]> {
  const pattern = text.toLowerCase()
  return db
    .select()
    .from(venues)
    .where(or(contains(venues.name, pattern), contains(venues.neighborhood, pattern), contains(venues.city, pattern)))
    .orderBy(asc(venues.name))
    .limit(limit)
}

const contains = (column: AnyColumn, needle: string) => sql`instr(lower(${column}), ${needle}) > 0`

/** Adds or refreshes venues found on the platform, so they can be watched. */
export async function upsertVenues(db: Db, rows: VenueRow[]): Promise<void> {
  for (const row of rows) {
    await db
      .insert(venues)
      .values(row)
      .onConflictDoUpdate({
        target: venues.venueId,
        set: {
          name: row.name,
          city: row.city,
          neighborhood: row.neighborhood,
          timeZone: row.timeZone,
          urlSlug: row.urlSlug,
          citySlug: row.citySlug,
          releaseDaysInAdvance: row.releaseDaysInAdvance,
          releaseTime: row.releaseTime,
          bookingBlocker: row.bookingBlocker,
        },
      })
  }
}

/** What the platform's venue data says of booking there now (search hits, venue details): kept for known venues. */
export async function updateBookingBlockers(db: Db, seen: Pick<VenueRow, 'venueId' | 'bookingBlocker'>[]): Promise<void> {
  if (seen.length === 0) return
  const [first, ...rest] = seen.map((v) => db.update(venues).set({ bookingBlocker: v.bookingBlocker }).where(eq(venues.venueId, v.venueId)))
  if (first) await db.batch([first, ...rest])
}
