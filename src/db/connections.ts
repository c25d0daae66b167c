// The user's platform connection row. The token column holds only AES-GCM ciphertext.
import { and, eq } from 'drizzle-orm'
import type { Db } from './client'
import { platformConnections } from './schema'

export type ConnectionRow = typeof platformConnections.$inferSelect

export async function findConnection(db: Db, userId: string): Promise<ConnectionRow | undefined> {
  const [row] = await db.select().from(platformConnections).where(eq(platformConnections.userId, userId))
  return row
}

export async function saveConnection(db: Db, row: ConnectionRow): Promise<void> {
  const { userId, ...rest } = row
  await db.insert(platformConnections).values(row).onConflictDoUpdate({ target: platformConnections.userId, set: rest })
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
  'tokenCiphertext' | 'tokenIv' | 'refreshCiphertext' | 'refreshIv' | 'tokenExpiresAt' | 'tokenObtainedAt'
>

/**
 * Stores renewed tokens, only if the stored auth token is still `replacing` (no other call
 * renewed it meanwhile) and the connection still works. True when this write won.
 */
export async function saveRenewedSession(db: Db, userId: string, replacing: string, session: SessionColumns): Promise<boolean> {
  const saved = await db
    .update(platformConnections)
    .set(session)
    .where(
      and(eq(platformConnections.userId, userId), eq(platformConnections.tokenCiphertext, replacing), eq(platformConnections.state, 'ok')),
    )
    .returning({ userId: platformConnections.userId })
  return saved.length > 0
}
