// Refresh-token reuse detection (RFC 9700, section 4.14.2) around the library's token endpoint. The
// library rotates refresh tokens and keeps accepting the one before the newest for as long as
// the grant lives, so a stolen token could be replayed again and again. Every refresh of a grant
// runs in its Durable Object, one at a time (src/auth/grant-object.ts), where this decides:
// - its newest refresh token is accepted;
// - the one before it, presented within DUPLICATE_REFRESH_WINDOW_MS of its rotation, is a
//   duplicate of the refresh that rotated it: parallel refreshes of a host that fired several
//   calls at once, or a retry after a lost answer. It gets the answer already issued for that
//   rotation (the same token pair), never a second branch of the grant. A network delivers
//   requests sent at once tens to hundreds of ms apart, often after the first one's answer is
//   out, so when it arrived cannot tell a duplicate from a retry, and neither needs to;
// - any other token issued for the grant, presented again, is a replay: the grant ends, with its
//   tokens and the requests created through it.
// A token never recorded (issued before this check existed, or not a token at all) is left to
// the library, which refuses what it does not know.
import type { Db } from '../db/client'
import { deleteTokensIssuedBefore, findIssuedToken, insertIssuedToken, latestGenerationOf } from '../db/refresh-tokens'
import { sha256Hex } from '../lib/random'
import { GRANT_TTL_SECONDS } from './oauth'
import { grantOfToken } from './oauth-grants'

/** How long after a rotation the token it replaced still gets that rotation's answer (docs/decisions/auth.md). */
export const DUPLICATE_REFRESH_WINDOW_MS = 30_000

export type PresentedRefreshToken =
  | { kind: 'unknown' }
  | { kind: 'accepted'; generation: number }
  /** The token the newest rotation replaced, within the window: that rotation's answer is due. */
  | { kind: 'duplicate'; tokenHash: string }
  /** A replay: the grant it was issued for, as recorded when it was issued. */
  | { kind: 'replay'; userId: string; grantId: string }

/** `arrivedAt`: when the request reached the service (not when its turn in the grant's object came). */
export async function checkRefreshToken(db: Db, token: string, arrivedAt: number): Promise<PresentedRefreshToken> {
  const tokenHash = await sha256Hex(token)
  const issued = await findIssuedToken(db, tokenHash)
  if (!issued) return { kind: 'unknown' }
  const { row, latestGeneration, latestIssuedAt } = issued
  if (row.generation === latestGeneration) return { kind: 'accepted', generation: row.generation }
  // Arrived before the rotation was recorded (negative) counts as within the window too.
  if (row.generation === latestGeneration - 1 && arrivedAt - latestIssuedAt <= DUPLICATE_REFRESH_WINDOW_MS) {
    return { kind: 'duplicate', tokenHash }
  }
  return { kind: 'replay', userId: row.userId, grantId: row.grantId }
}

/** Whether `token` is a refresh token recorded as issued for the grant (any generation). */
export async function isRecordedRefreshTokenOf(db: Db, token: string, grant: { userId: string; grantId: string }): Promise<boolean> {
  const issued = await findIssuedToken(db, await sha256Hex(token))
  return issued !== undefined && issued.row.userId === grant.userId && issued.row.grantId === grant.grantId
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
  if (typeof token !== 'string' || !grant || (presented !== 'code' && (presented.kind === 'replay' || presented.kind === 'duplicate')))
    return
  let generation = 0
  if (presented === 'code') await deleteTokensIssuedBefore(db, now - GRANT_TTL_SECONDS * 1000 - 86_400_000)
  else if (presented.kind === 'accepted') generation = presented.generation + 1
  else generation = ((await latestGenerationOf(db, grant.grantId)) ?? -1) + 1
  await insertIssuedToken(db, { tokenHash: await sha256Hex(token), ...grant, generation, issuedAt: now })
}
