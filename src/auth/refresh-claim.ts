// A refresh is a claim. KV, where the OAuth library keeps grants, has no
// compare-and-swap, so parallel refreshes with one refresh token all succeeded in the library
// (cloudflare/workers-oauth-provider#214, /work/shared/reference/workers-stack.md): each got tokens,
// and all but the last writer's refresh tokens were dead on arrival. Here the newest token of a
// grant is claimed in D1 before the library sees it: one conditional upsert (src/db/rate-limits.ts),
// so exactly one caller holds the claim; the others get `invalid_grant` without touching the grant.
// The claim lasts while the refresh runs and is dropped after it (a failed refresh frees the token
// for a retry); a claimant that died keeps it at most CLAIM_WINDOW_MS.
import type { Db } from '../db/client'
import { forget, reserve } from '../db/rate-limits'
import { latestGenerationOf } from '../db/refresh-tokens'

const CLAIM_WINDOW_MS = 60_000

const claimKey = (tokenHash: string) => `refresh-claim:${tokenHash}`

/**
 * Claims the grant's newest refresh token. False when another refresh holds it, or when the
 * token stopped being the newest between the caller's read and this claim (a winner rotated it).
 */
export async function claimNewestRefreshToken(
  db: Db,
  token: { tokenHash: string; grantId: string; generation: number },
  now: number,
): Promise<boolean> {
  const key = claimKey(token.tokenHash)
  if (!(await reserve(db, { key, limit: 1, windowMs: CLAIM_WINDOW_MS }, now)).ok) return false
  if ((await latestGenerationOf(db, token.grantId)) === token.generation) return true
  await forget(db, key)
  return false
}

/** Ends a claim once the refresh is over (its new token recorded, or its failure answered). */
export function endRefreshClaim(db: Db, tokenHash: string): Promise<void> {
  return forget(db, claimKey(tokenHash))
}

/** What the callers that lost the race get: the OAuth error of a used refresh token. */
export function lostRefreshRace(): Response {
  return Response.json(
    { error: 'invalid_grant', error_description: 'This refresh token was just used by another request. Use the newest refresh token.' },
    { status: 400, headers: { 'Cache-Control': 'no-store' } },
  )
}
