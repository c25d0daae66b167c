// The refresh tokens the OAuth token endpoint issued (SHA-256 only), by grant and rotation
// generation: what refresh-token reuse detection reads (src/auth/refresh-reuse.ts).
import { eq, lt, sql } from 'drizzle-orm'
import type { Db } from './client'
import { oauthRefreshTokens } from './schema'

export type RefreshTokenRow = typeof oauthRefreshTokens.$inferSelect

/** A token as issued, with the newest generation of its grant and when that generation began. */
export interface IssuedToken {
  row: RefreshTokenRow
  latestGeneration: number
  latestIssuedAt: number
}

export async function findIssuedToken(db: Db, tokenHash: string): Promise<IssuedToken | undefined> {
  const row = await db.select().from(oauthRefreshTokens).where(eq(oauthRefreshTokens.tokenHash, tokenHash)).get()
  if (!row) return undefined
  const latest = await db
    .select({ generation: oauthRefreshTokens.generation, issuedAt: sql<number>`min(${oauthRefreshTokens.issuedAt})` })
    .from(oauthRefreshTokens)
    .where(eq(oauthRefreshTokens.grantId, row.grantId))
    .groupBy(oauthRefreshTokens.generation)
    .orderBy(sql`${oauthRefreshTokens.generation} desc`)
    .limit(1)
    .get()
  return { row, latestGeneration: latest?.generation ?? row.generation, latestIssuedAt: latest?.issuedAt ?? row.issuedAt }
}

/** The newest generation of a grant, or null when none of its tokens was recorded. */
export async function latestGenerationOf(db: Db, grantId: string): Promise<number | null> {
  const row = await db
    .select({ generation: sql<number | null>`max(${oauthRefreshTokens.generation})` })
    .from(oauthRefreshTokens)
    .where(eq(oauthRefreshTokens.grantId, grantId))
    .get()
  return row?.generation ?? null
}

export async function insertIssuedToken(db: Db, row: Omit<RefreshTokenRow, 'graceUsedAt'>): Promise<void> {
  await db.insert(oauthRefreshTokens).values(row).onConflictDoNothing()
}

/** Rows of tokens issued before `before`: their grants (30 days at most) have ended. */
export async function deleteTokensIssuedBefore(db: Db, before: number): Promise<void> {
  await db.delete(oauthRefreshTokens).where(lt(oauthRefreshTokens.issuedAt, before))
}
