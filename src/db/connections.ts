// The user's platform connection row. The token column holds only AES-GCM ciphertext.
import { and, eq, gt, isNull, lte, or } from 'drizzle-orm'
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core'
import type { Db } from './client'
import { platformConnections } from './schema'

export type ConnectionRow = typeof platformConnections.$inferSelect

export async function findConnection(db: Db, userId: string): Promise<ConnectionRow | undefined> {
  const [row] = await db.select().from(platformConnections).where(eq(platformConnections.userId, userId))
  return row
}

/** The renewal lease's columns: a connection saved from a login starts without one. */
type LeaseColumns = 'renewalHolder' | 'renewalLeaseUntil'
const noLease = { renewalHolder: null, renewalLeaseUntil: null } satisfies Pick<ConnectionRow, LeaseColumns>

export async function saveConnection(db: Db, row: Omit<ConnectionRow, LeaseColumns>): Promise<void> {
  const { userId, ...rest } = row
  await db
    .insert(platformConnections)
    .values({ ...row, ...noLease })
    .onConflictDoUpdate({ target: platformConnections.userId, set: { ...rest, ...noLease } })
}

export async function deleteConnection(db: Db, userId: string): Promise<boolean> {
  const gone = await db.delete(platformConnections).where(eq(platformConnections.userId, userId)).returning()
  return gone.length > 0
}

export async function updateConnectionState(
  db: Db,
  userId: string,
  change: Partial<Pick<ConnectionRow, 'state' | 'checkedAt' | 'paymentMethodId' | 'displayName'>>,
): Promise<void> {
  await db.update(platformConnections).set(change).where(eq(platformConnections.userId, userId))
}

/** Flips a working connection to reauth_required; returns its connectedAt the first time only. */
export async function flagReauthRequired(db: Db, userId: string, now: number): Promise<number | null> {
  const [row] = await db
    .update(platformConnections)
    .set({ state: 'reauth_required', checkedAt: now })
    .where(and(eq(platformConnections.userId, userId), eq(platformConnections.state, 'ok')))
    .returning({ connectedAt: platformConnections.connectedAt })
  return row?.connectedAt ?? null
}

export type SessionColumns = Pick<
  ConnectionRow,
  | 'tokenCiphertext'
  | 'tokenIv'
  | 'refreshCiphertext'
  | 'refreshIv'
  | 'refreshVia'
  | 'refreshExpiresAt'
  | 'tokenExpiresAt'
  | 'tokenObtainedAt'
  | 'cdnCookiesCiphertext'
  | 'cdnCookiesIv'
>

export type CookieColumns = Pick<ConnectionRow, 'cdnCookiesCiphertext' | 'cdnCookiesIv'>

/**
 * Stores the session's CDN cookies after a call changed them, only while the stored auth token is
 * still `of` (a renewed or reconnected session keeps its own). True when written.
 */
export async function saveCdnCookies(db: Db, userId: string, of: string, cookies: CookieColumns): Promise<boolean> {
  const saved = await db
    .update(platformConnections)
    .set(cookies)
    .where(and(eq(platformConnections.userId, userId), eq(platformConnections.tokenCiphertext, of)))
    .returning({ userId: platformConnections.userId })
  return saved.length > 0
}

/**
 * Takes the user's renewal lease until `now + leaseMs`, only if the stored auth token is still
 * `replacing`, the connection works, and no live lease is held (an expired one is a renewer that
 * died). True when taken: this call alone may spend the refresh token.
 */
export async function claimRenewal(
  db: Db,
  lease: { userId: string; replacing: string; holder: string; now: number; leaseMs: number },
): Promise<boolean> {
  const taken = await db
    .update(platformConnections)
    .set({ renewalHolder: lease.holder, renewalLeaseUntil: lease.now + lease.leaseMs })
    .where(
      and(
        eq(platformConnections.userId, lease.userId),
        eq(platformConnections.tokenCiphertext, lease.replacing),
        eq(platformConnections.state, 'ok'),
        or(isNull(platformConnections.renewalLeaseUntil), lte(platformConnections.renewalLeaseUntil, lease.now)),
      ),
    )
    .returning({ userId: platformConnections.userId })
  return taken.length > 0
}

/** Gives the lease up without new tokens (the refresh failed or was refused). */
export async function releaseRenewal(db: Db, userId: string, holder: string): Promise<void> {
  await db
    .update(platformConnections)
    .set(noLease)
    .where(and(eq(platformConnections.userId, userId), eq(platformConnections.renewalHolder, holder)))
}

/**
 * Stores renewed tokens and ends the renewal lease in one write, only if the stored auth token is
 * still `replacing` (no other call renewed it meanwhile) and the connection still works. True
 * when this write won.
 */
export async function saveRenewedSession(db: Db, userId: string, replacing: string, session: SessionColumns): Promise<boolean> {
  const saved = await db
    .update(platformConnections)
    .set({ ...session, ...noLease })
    .where(
      and(eq(platformConnections.userId, userId), eq(platformConnections.tokenCiphertext, replacing), eq(platformConnections.state, 'ok')),
    )
    .returning({ userId: platformConnections.userId })
  return saved.length > 0
}

/**
 * Working connections whose auth token or refresh token stops working in (now, until]: the
 * sessions that may end by themselves soon (executors/session-end.ts says whether and when). A
 * scan of the connections, one row per connected user; run once an hour.
 */
export async function sessionsEndingBy(
  db: Db,
  now: number,
  until: number,
): Promise<Pick<ConnectionRow, 'userId' | 'refreshCiphertext' | 'refreshExpiresAt' | 'tokenExpiresAt'>[]> {
  const within = (column: SQLiteColumn) => and(gt(column, now), lte(column, until))
  return db
    .select({
      userId: platformConnections.userId,
      refreshCiphertext: platformConnections.refreshCiphertext,
      refreshExpiresAt: platformConnections.refreshExpiresAt,
      tokenExpiresAt: platformConnections.tokenExpiresAt,
    })
    .from(platformConnections)
    .where(
      and(
        eq(platformConnections.state, 'ok'),
        or(within(platformConnections.tokenExpiresAt), within(platformConnections.refreshExpiresAt)),
      ),
    )
}
