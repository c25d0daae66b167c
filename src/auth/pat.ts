// Personal access tokens: `spt_` + 32 random bytes in base62. Only the SHA-256 is stored;
// the token is shown to the user once.
import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm'
import type { Principal } from '../core/principal'
import { isScope, type Scope } from '../core/scopes'
import type { Db } from '../db/client'
import { accessTokens } from '../db/schema'
import { AppError } from '../errors'
import { newId, randomBase62, sha256Hex } from '../lib/random'

const PAT_PREFIX = 'spt_'
const PAT_LIFETIME_MS = 90 * 24 * 60 * 60 * 1000
/** last_used_at is written at most this often, so a busy token is not a write per call. */
const LAST_USED_GRANULARITY_MS = 60_000

export type AccessTokenRecord = typeof accessTokens.$inferSelect

export function isPersonalAccessToken(token: string): boolean {
  return token.startsWith(PAT_PREFIX)
}

export async function createAccessToken(
  db: Db,
  input: { userId: string; name: string; scopes: Scope[]; now?: number },
): Promise<{ token: string; record: AccessTokenRecord }> {
  const now = input.now ?? Date.now()
  const token = PAT_PREFIX + randomBase62(32)
  const record: AccessTokenRecord = {
    id: newId('pat'),
    userId: input.userId,
    name: input.name,
    tokenHash: await sha256Hex(token),
    hint: `${token.slice(0, 8)}…${token.slice(-4)}`,
    scopes: [...new Set(input.scopes)],
    createdAt: now,
    expiresAt: now + PAT_LIFETIME_MS,
    lastUsedAt: null,
    revokedAt: null,
  }
  await db.insert(accessTokens).values(record)
  return { token, record }
}

export async function listAccessTokens(db: Db, userId: string): Promise<AccessTokenRecord[]> {
  return db.select().from(accessTokens).where(eq(accessTokens.userId, userId)).orderBy(desc(accessTokens.createdAt))
}

/**
 * Marks the user's token revoked (keeping the first revocation time). Returns false when the
 * user has no such token: another user's token id changes nothing.
 */
export async function markAccessTokenRevoked(db: Db, userId: string, tokenId: string, now: number): Promise<boolean> {
  const res = await db
    .update(accessTokens)
    .set({ revokedAt: sql`coalesce(${accessTokens.revokedAt}, ${now})` })
    .where(and(eq(accessTokens.id, tokenId), eq(accessTokens.userId, userId)))
    .returning({ id: accessTokens.id })
  return res.length > 0
}

const unauthorized = (message: string) =>
  new AppError('unauthorized', message, {
    'WWW-Authenticate': `Bearer realm="tablewatch", error="invalid_token", error_description="${message}"`,
  })

/** Resolves a presented PAT to its principal, or throws the contract's 401. */
export async function principalFromPat(db: Db, token: string, now: number): Promise<Principal> {
  const [row] = await db
    .select()
    .from(accessTokens)
    .where(eq(accessTokens.tokenHash, await sha256Hex(token)))
  if (!row) throw unauthorized('The access token is not valid.')
  if (row.revokedAt !== null) {
    throw new AppError('authorization_revoked', 'This access token was revoked. Ask the user to create a new one.', {
      'WWW-Authenticate': 'Bearer realm="tablewatch", error="invalid_token", error_description="The access token was revoked."',
    })
  }
  if (row.expiresAt <= now) throw unauthorized('The access token has expired.')
  await db
    .update(accessTokens)
    .set({ lastUsedAt: now })
    .where(
      and(eq(accessTokens.id, row.id), or(isNull(accessTokens.lastUsedAt), lt(accessTokens.lastUsedAt, now - LAST_USED_GRANULARITY_MS))),
    )
  return { kind: 'pat', userId: row.userId, principalId: row.id, scopes: row.scopes.filter(isScope), expiresAt: row.expiresAt }
}
