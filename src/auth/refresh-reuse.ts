// Refresh-token reuse detection (RFC 9700, section 4.14.2) around the library's token endpoint. The
// library rotates refresh tokens and keeps accepting the one before the newest for as long as
// the grant lives, so a stolen token can be replayed again and again. Here, per grant:
// - its newest refresh token is accepted by one refresh at a time (a claim, src/auth/refresh-claim.ts);
// - the one before it is accepted once, within 30 s of the rotation, from a request that arrived
//   after the rotation was recorded: a client that lost the answer and retries
//   (docs/decisions/auth.md). A request that arrived before it ran in parallel with the winner: it lost the race;
// - any other token issued for the grant, presented again, is a replay: the grant ends, with its
//   tokens and the requests created through it.
// A token never recorded (issued before this check existed, or not a token at all) is left to
// the library, which refuses what it does not know.
import type { Db } from '../db/client'
import { deleteTokensIssuedBefore, findIssuedToken, insertIssuedToken, latestGenerationOf, takeGraceUse } from '../db/refresh-tokens'
import { sha256Hex } from '../lib/random'
import { GRANT_TTL_SECONDS } from './oauth'
import { grantOfToken } from './oauth-grants'
import { claimNewestRefreshToken } from './refresh-claim'

const REFRESH_REUSE_GRACE_MS = 30_000

export type PresentedRefreshToken =
  | { kind: 'unknown' }
  /** `claimed`: the hash of the newest token this refresh claimed; end the claim afterwards. */
  | { kind: 'accepted'; generation: number; claimed?: string }
  /** Another refresh with the same token holds it, or won it while this one was arriving. */
  | { kind: 'raced' }
  /** A replay: the grant it was issued for, as recorded when it was issued. */
  | { kind: 'replay'; userId: string; grantId: string }

export async function checkRefreshToken(db: Db, token: string, now: number): Promise<PresentedRefreshToken> {
  const tokenHash = await sha256Hex(token)
  const issued = await findIssuedToken(db, tokenHash)
  if (!issued) return { kind: 'unknown' }
  const { row, latestGeneration, latestIssuedAt } = issued
  if (row.generation === latestGeneration) {
    const claimed = await claimNewestRefreshToken(db, { tokenHash, grantId: row.grantId, generation: row.generation }, now)
    return claimed ? { kind: 'accepted', generation: row.generation, claimed: tokenHash } : { kind: 'raced' }
  }
  const inGrace = row.generation === latestGeneration - 1 && now - latestIssuedAt <= REFRESH_REUSE_GRACE_MS
  // `now` is when this request arrived: before the rotation was recorded, it ran alongside the winner.
  if (inGrace && now < latestIssuedAt) return { kind: 'raced' }
  if (inGrace && (await takeGraceUse(db, tokenHash, now))) return { kind: 'accepted', generation: row.generation }
  return { kind: 'replay', userId: row.userId, grantId: row.grantId }
}

/**
 * Records the refresh token in a successful token answer: generation 0 at the code exchange, one
 * past the presented token's at a refresh (one past the grant's newest when that one was unknown).
 */
export async function recordIssuedRefreshToken(
  db: Db,
  answer: Response,
  presented: PresentedRefreshToken | 'code',
  now: number,
): Promise<void> {
  const body: unknown = await answer
    .clone()
    .json()
    .catch(() => null)
  const token = body && typeof body === 'object' && 'refresh_token' in body ? body.refresh_token : null
  const grant = typeof token === 'string' ? grantOfToken(token) : null
  if (typeof token !== 'string' || !grant || (presented !== 'code' && (presented.kind === 'replay' || presented.kind === 'raced'))) return
  let generation = 0
  if (presented === 'code') await deleteTokensIssuedBefore(db, now - GRANT_TTL_SECONDS * 1000 - 86_400_000)
  else if (presented.kind === 'accepted') generation = presented.generation + 1
  else generation = ((await latestGenerationOf(db, grant.grantId)) ?? -1) + 1
  await insertIssuedToken(db, { tokenHash: await sha256Hex(token), ...grant, generation, issuedAt: now })
}
