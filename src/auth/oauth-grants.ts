// The OAuth grants of a user as the library stores them: listed for the assistants page, and
// ended with their tokens. Ending the requests created through a grant is a use case
// (src/requests/revoke.ts), which calls these.
import type { GrantSummary } from '@cloudflare/workers-oauth-provider'
import { z } from 'zod'
import { displayName } from './client-metadata'
import { oauthApi, oauthSetup } from './oauth'

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
        clientName: (metadata.success && displayName(metadata.data.clientName)) || grant.clientId,
        scopes: grant.scope,
        grantedAt: grant.createdAt * 1000,
        expiresAt: (grant.expiresAt ?? grant.createdAt) * 1000,
      }
    })
    .sort((a, b) => b.grantedAt - a.grantedAt)
}

/** Whether the user holds this grant (another user's grant id is never theirs). */
export async function userHasGrant(env: Cloudflare.Env, userId: string, grantId: string): Promise<boolean> {
  const grants = await allGrantsOf(env, userId)
  return grants.some((grant) => grant.id === grantId)
}

/** Ends the grant and every token issued under it. */
export async function endGrant(env: Cloudflare.Env, userId: string, grantId: string): Promise<void> {
  await oauthApi(env).revokeGrant(grantId, userId)
}

/**
 * The user and grant a token the library issued names (`userId:grantId:secret`), or null. Only
 * our own answers' tokens are believed; a presented token's parts are lookup keys at most.
 */
export function grantOfToken(token: string): { userId: string; grantId: string } | null {
  const [userId, grantId, secret, ...rest] = token.split(':')
  if (!userId || !grantId || !secret || rest.length > 0) return null
  return { userId, grantId }
}

/** A grant as an assistant connection: the user and the OAuth client, for its resources. */
export interface ConnectionGrant {
  userId: string
  grantId: string
  clientId: string
  /** The resources (audiences) the grant's tokens are for. */
  resources: string[]
}

/**
 * The connection a freshly issued access token belongs to, read from the token itself (its
 * client and audience), not from the grant listing: KV lists are eventually consistent, so a
 * grant created a moment ago may not be listed yet.
 */
export async function connectionOfAccessToken(env: Cloudflare.Env, token: string): Promise<ConnectionGrant | null> {
  const grant = grantOfToken(token)
  if (!grant) return null
  const setup = oauthSetup(env)
  let clientId: string | null = null
  const resources: string[] = []
  for (const resource of [setup.mcpResource, setup.apiResource]) {
    const validated = await setup.server.validateToken(resource, token, env)
    if (!validated || validated.userId !== grant.userId) continue
    clientId = validated.clientId
    resources.push(resource)
  }
  return clientId ? { ...grant, clientId, resources } : null
}

/**
 * The user's other grants of the same connection: the same OAuth client, for the same resource.
 * These are the grants a new consent replaces (the library's own rule for `completeAuthorization`).
 */
export async function earlierGrantsOfConnection(env: Cloudflare.Env, connection: ConnectionGrant): Promise<string[]> {
  const grants = await allGrantsOf(env, connection.userId)
  return grants
    .filter(
      (grant) =>
        grant.id !== connection.grantId &&
        grant.clientId === connection.clientId &&
        [grant.resource].flat().some((resource) => resource !== undefined && connection.resources.includes(resource)),
    )
    .map((grant) => grant.id)
}
