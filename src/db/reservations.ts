// Reservations the service made, verified against the user's platform account.
import { and, eq, inArray, ne } from 'drizzle-orm'
import type { Db } from './client'
import type { Window } from './requests'
import { requests, reservations } from './schema'

export type ReservationRow = typeof reservations.$inferSelect

/** The reservations of several requests in one query (a page of a list). */
export async function reservationsOfRequests(db: Db, requestIds: string[]): Promise<ReservationRow[]> {
  if (requestIds.length === 0) return []
  return db.select().from(reservations).where(inArray(reservations.requestId, requestIds))
}

/**
 * A reservation as the principal that owns its request sees it. Ownership is read from the
 * request's index row, which a reconnecting assistant's new grant takes over (transferOwnership),
 * so a booking recorded while the ownership moved is still seen by the new owner.
 */
export async function reservationOfPrincipal(db: Db, id: number, principalId: string): Promise<ReservationRow | undefined> {
  const [row] = await db
    .select({ reservation: reservations })
    .from(reservations)
    .innerJoin(requests, eq(requests.id, reservations.requestId))
    .where(and(eq(reservations.id, id), eq(requests.principalId, principalId)))
  return row?.reservation
}

/** Platform reservation ids the service already recorded for the user's other requests. */
export async function claimedByOtherRequests(db: Db, userId: string, requestId: string): Promise<Set<string>> {
  const rows = await db
    .select({ id: reservations.platformReservationId })
    .from(reservations)
    .where(and(eq(reservations.userId, userId), ne(reservations.requestId, requestId)))
  return new Set(rows.flatMap((r) => (r.id === null ? [] : [r.id])))
}

/** Verified reservations of the user that start inside any of the windows. */
export async function verifiedReservationsIn(db: Db, userId: string, windows: Window[]): Promise<ReservationRow[]> {
  const rows = await db
    .select()
    .from(reservations)
    .where(and(eq(reservations.userId, userId), eq(reservations.verified, true)))
  return rows.filter((r) => windows.some(([start, end]) => r.startsAt >= start && r.startsAt <= end))
}

export type NewReservation = Omit<typeof reservations.$inferInsert, 'id'>

/**
 * Claims a verified reservation for its request: true when the request holds it (now or from an
 * earlier run), false when another request of the user holds that platform reservation. The
 * insert is the claim (unique per request, and per user and platform reservation), so two
 * requests verifying at once cannot both record one table.
 */
export async function claimReservation(db: Db, row: NewReservation): Promise<boolean> {
  await db.insert(reservations).values(row).onConflictDoNothing()
  const [held] = await db
    .select({ id: reservations.platformReservationId })
    .from(reservations)
    .where(eq(reservations.requestId, row.requestId))
  return held !== undefined && held.id === row.platformReservationId
}

/** The user's verified reservations, soonest first (the calendar feed). */
export async function verifiedReservationsOfUser(db: Db, userId: string): Promise<ReservationRow[]> {
  return db
    .select()
    .from(reservations)
    .where(and(eq(reservations.userId, userId), eq(reservations.verified, true)))
    .orderBy(reservations.startsAt)
}

/** One of the user's reservations, whichever request made it. */
export async function reservationOfUser(db: Db, id: number, userId: string): Promise<ReservationRow | undefined> {
  const [row] = await db
    .select()
    .from(reservations)
    .where(and(eq(reservations.id, id), eq(reservations.userId, userId)))
  return row
}
