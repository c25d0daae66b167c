// The OAuth grants of a user, as the assistants page lists them, and their revocation: a
// revoked grant loses its tokens and the requests created through it move to `revoked`.
import type { AuthRequest, GrantSummary } from '@cloudflare/workers-oauth-provider'
import { z } from 'zod'
import type { Deps } from '../requests/deps'
import { revokeRequestsOf } from '../requests/revoke'
import { oauthApi } from './oauth'
import { grantPrincipalId } from './oauth-props'

/** What the consent step stores with a grant in plain text (never a secret). */
export const GrantMetadata = z.object({ clientName: z.string() })
export type GrantMetadata = z.infer<typeof GrantMetadata>

export interface GrantView {
  id: string
  clientName: string
  scopes: string[]
  grantedAt: number
  expiresAt: number
}

const PAGE = 100
const REVOKED_REASON = 'The assistant connection (OAuth grant) that created this request was revoked.'

async function allGrantsOf(env: Cloudflare.Env, userId: string): Promise<GrantSummary[]> {
  const api = oauthApi(env)
  const grants: GrantSummary[] = []
  let cursor: string | undefined
  do {
    const page = await api.listUserGrants(userId, { limit: PAGE, ...(cursor ? { cursor } : {}) })
    grants.push(...page.items)
    cursor = page.cursor
  } while (cursor)
  return grants
}

/** The user's live grants, newest first. Times are in ms, like the rest of the service. */
export async function listGrants(env: Cloudflare.Env, userId: string): Promise<GrantView[]> {
  const grants = await allGrantsOf(env, userId)
  return grants
    .map((grant) => {
      const metadata = GrantMetadata.safeParse(grant.metadata)
      return {
        id: grant.id,
        clientName: metadata.success ? metadata.data.clientName : grant.clientId,
        scopes: grant.scope,
        grantedAt: grant.createdAt * 1000,
        expiresAt: (grant.expiresAt ?? grant.createdAt) * 1000,
      }
    })
    .sort((a, b) => b.grantedAt - a.grantedAt)
}

/**
 * Revokes one of the user's grants and its tokens, then revokes the requests created through
 * it. Returns false when the user has no such grant (another user's grant id changes nothing).
 */
export async function revokeGrant(deps: Deps, userId: string, grantId: string): Promise<boolean> {
  const grants = await allGrantsOf(deps.env, userId)
  if (!grants.some((grant) => grant.id === grantId)) return false
  await oauthApi(deps.env).revokeGrant(grantId, userId)
  await revokeRequestsOfGrants(deps, [grantId])
  return true
}

/**
 * The user's grants that a new consent for the same client and resource replaces: the library
 * revokes them once the new grant is stored (`completeAuthorization`'s default).
 */
export async function grantsReplacedBy(env: Cloudflare.Env, userId: string, request: AuthRequest): Promise<string[]> {
  const grants = await allGrantsOf(env, userId)
  return grants
    .filter((grant) => grant.clientId === request.clientId && [grant.resource].flat().includes(request.resource))
    .map((grant) => grant.id)
}

/** A replaced or otherwise ended grant's open requests move to `revoked`, like a disconnected one's. */
export async function revokeRequestsOfGrants(deps: Deps, grantIds: string[]): Promise<void> {
  for (const grantId of grantIds) await revokeRequestsOf(deps, { principalId: grantPrincipalId(grantId) }, REVOKED_REASON)
}

/**
 * After an RFC 7009 revocation at the token endpoint: revoking a refresh token ends the whole
 * grant, so its requests are revoked too. Only acts once the grant is really gone.
 */
export async function revokeRequestsOfEndedGrant(deps: Deps, token: string): Promise<void> {
  const [userId, grantId, secret, ...rest] = token.split(':')
  if (!userId || !grantId || !secret || rest.length > 0) return
  const grants = await allGrantsOf(deps.env, userId)
  if (grants.some((grant) => grant.id === grantId)) return
  await revokeRequestsOfGrants(deps, [grantId])
}
