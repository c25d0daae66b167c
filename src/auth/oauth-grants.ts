// The OAuth grants of a user as the library stores them: listed for the assistants page, and
// ended with their tokens. Ending the requests created through a grant is a use case
// (src/access/revoke.ts), which calls these.
import type { GrantSummary } from '@cloudflare/workers-oauth-provider'
import { z } from 'zod'
import { displayName } from './client-metadata'
import { grantObject } from './grant-stub'
import { oauthApi, oauthSetup } from './oauth'
import { connectionPrincipalId } from './oauth-connection'
import { OAuthProps } from './oauth-props'

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

const resourcesOf = (grant: GrantSummary): string[] => [grant.resource].flat().filter((r): r is string => typeof r === 'string')
const sameConnection = (a: GrantSummary, b: GrantSummary) =>
  a.clientId === b.clientId && resourcesOf(a).some((resource) => resourcesOf(b).includes(resource))

/**
 * The user's live connections, newest first, one per client and resource (its newest grant
 * stands for it: disconnecting it ends them all). Times are in ms, like the rest of the service;
 * the connection counts as granted when its newest grant was, and ends with its last grant.
 */
export async function listGrants(env: Cloudflare.Env, userId: string): Promise<GrantView[]> {
  const grants = (await allGrantsOf(env, userId)).sort((a, b) => b.createdAt - a.createdAt)
  const newest = grants.filter((grant, index) => grants.findIndex((other) => sameConnection(grant, other)) === index)
  return newest.map((grant) => {
    const metadata = GrantMetadata.safeParse(grant.metadata)
    const ends = grants.filter((other) => sameConnection(grant, other)).map((other) => other.expiresAt ?? other.createdAt)
    return {
      id: grant.id,
      clientName: (metadata.success && displayName(metadata.data.clientName)) || grant.clientId,
      scopes: grant.scope,
      grantedAt: grant.createdAt * 1000,
      expiresAt: Math.max(...ends) * 1000,
    }
  })
}

/** A live grant of the user and the connection it belongs to, or null when the user has no such grant. */
export interface GrantOfConnection {
  grantId: string
  /** The connection's principal (src/auth/oauth-connection.ts). */
  connectionId: string
  /** Every live grant of that connection, this one included. */
  grantIds: string[]
}

export async function connectionOfGrant(env: Cloudflare.Env, userId: string, grantId: string): Promise<GrantOfConnection | null> {
  const grants = await allGrantsOf(env, userId)
  const grant = grants.find((g) => g.id === grantId)
  const resource = grant ? resourcesOf(grant)[0] : undefined
  if (!grant || !resource) return null
  return {
    grantId,
    connectionId: await connectionPrincipalId(userId, grant.clientId, resource),
    grantIds: grants.filter((other) => sameConnection(grant, other)).map((other) => other.id),
  }
}

/** The OAuth client a live grant of the user was issued to, or null when the user has no such grant. */
export async function clientOfGrant(env: Cloudflare.Env, userId: string, grantId: string): Promise<string | null> {
  return (await allGrantsOf(env, userId)).find((grant) => grant.id === grantId)?.clientId ?? null
}

/** The name of the client behind a connection principal, when the user still has a grant of it. */
export async function clientNameOfConnection(env: Cloudflare.Env, userId: string, connectionId: string): Promise<string | null> {
  for (const grant of await allGrantsOf(env, userId)) {
    const resource = resourcesOf(grant)[0]
    if (!resource || (await connectionPrincipalId(userId, grant.clientId, resource)) !== connectionId) continue
    const metadata = GrantMetadata.safeParse(grant.metadata)
    return (metadata.success && displayName(metadata.data.clientName)) || grant.clientId
  }
  return null
}

/**
 * Ends the grant and every token issued under it, in the grant's object: after a refresh running
 * now (which could otherwise write the grant back), and refusing every refresh after.
 */
export async function endGrant(env: Cloudflare.Env, userId: string, grantId: string): Promise<void> {
  await grantObject(env, { userId, grantId }).end(userId, grantId)
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
  /** The earlier client whose connection the user chose, at consent, to continue with this grant. */
  continuesClientId?: string
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
  let props: unknown = null
  const resources: string[] = []
  for (const resource of [setup.mcpResource, setup.apiResource]) {
    const validated = await setup.server.validateToken(resource, token, env)
    if (!validated || validated.userId !== grant.userId) continue
    clientId = validated.clientId
    props = validated.props
    resources.push(resource)
  }
  if (!clientId) return null
  const continues = OAuthProps.safeParse(props).data?.continuesClientId
  return { ...grant, clientId, resources, ...(continues ? { continuesClientId: continues } : {}) }
}

/** The user's other live grants of the same connection: the same OAuth client, for the same resource. */
export async function earlierGrantsOfConnection(env: Cloudflare.Env, connection: ConnectionGrant): Promise<string[]> {
  const grants = await allGrantsOf(env, connection.userId)
  return grants
    .filter(
      (grant) =>
        grant.id !== connection.grantId &&
        grant.clientId === connection.clientId &&
        resourcesOf(grant).some((resource) => connection.resources.includes(resource)),
    )
    .map((grant) => grant.id)
}

/** What a person recognizes an app by on the consent page: its name and where its access goes. */
export interface ClientLook {
  clientId: string
  name: string
  redirectUris: readonly string[]
}

/** An earlier connection of the user, through another client. */
export interface EarlierConnection {
  clientId: string
  clientName: string
  /** The connection's principal (src/auth/oauth-connection.ts): what owns its requests. */
  connectionId: string
  /** Its live grants, whose own principals may still own requests from before connections. */
  grantIds: string[]
  /** When its newest grant was made (ms). */
  connectedAt: number
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((item) => b.includes(item))

/**
 * The user's live connections for `resource` through other registered clients that look like
 * `client` (the same name and the same redirect URIs): what a host that registered again (a
 * connector removed and re-added, a cleared cache, a confidential client's new registration) was
 * before. A Client ID Metadata Document client has one id wherever it is installed, so it is its
 * own earlier connection, and is never compared.
 */
export async function lookAlikeConnections(
  env: Cloudflare.Env,
  userId: string,
  client: ClientLook,
  resource: string,
): Promise<EarlierConnection[]> {
  if (isUrl(client.clientId)) return []
  const grants = (await allGrantsOf(env, userId))
    .filter((grant) => grant.clientId !== client.clientId && !isUrl(grant.clientId) && resourcesOf(grant).includes(resource))
    .sort((a, b) => b.createdAt - a.createdAt)
  const found: EarlierConnection[] = []
  for (const clientId of new Set(grants.map((grant) => grant.clientId))) {
    const registered = await oauthApi(env).lookupClient(clientId)
    if (!registered || displayName(registered.clientName ?? '') !== client.name || !sameSet(registered.redirectUris, client.redirectUris))
      continue
    const ofClient = grants.filter((grant) => grant.clientId === clientId)
    found.push({
      clientId,
      clientName: client.name,
      connectionId: await connectionPrincipalId(userId, clientId, resource),
      grantIds: ofClient.map((grant) => grant.id),
      connectedAt: (ofClient[0]?.createdAt ?? 0) * 1000,
    })
  }
  return found
}

/** The user's live grants of one client for one resource. */
export async function grantsOfClient(env: Cloudflare.Env, userId: string, clientId: string, resource: string): Promise<string[]> {
  return (await allGrantsOf(env, userId))
    .filter((grant) => grant.clientId === clientId && resourcesOf(grant).includes(resource))
    .map((grant) => grant.id)
}

const isUrl = (clientId: string) => URL.canParse(clientId)
