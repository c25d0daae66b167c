// The OAuth 2.1 authorization server for MCP hosts (and REST clients), and the two protected
// resources it issues tokens for: `/mcp` and `/api/v1`. Built once per public origin and reused.
import { OAuthAuthorizationServer, type OAuthHelpers } from '@cloudflare/workers-oauth-provider'
import { publicBaseUrl } from '../core/deployment'
import { SCOPES } from '../core/scopes'
import { connectionPrincipalId } from './oauth-connection'
import { OAuthProps } from './oauth-props'
import { guardLibraryFetches } from './outbound-guard'

export const AUTHORIZE_PATH = '/oauth/authorize'
export const TOKEN_PATH = '/oauth/token'
export const REGISTER_PATH = '/oauth/register'

/** Access tokens live 15 minutes (contract); tests may shorten it to KV's minimum of 60 s. */
const ACCESS_TOKEN_TTL_SECONDS = 15 * 60
/** A grant ends 30 days after the code exchange, however often it is refreshed. */
export const GRANT_TTL_SECONDS = 30 * 24 * 60 * 60
/** Any MCP connection needs this scope; the consent page always grants it for /mcp. */
export const MCP_REQUIRED_SCOPE = 'requests:read'

export interface OAuthSetup {
  origin: string
  /** The canonical resource of the MCP endpoint, `{origin}/mcp`. */
  mcpResource: string
  /** The canonical resource of the REST interface, `{origin}/api/v1`. */
  apiResource: string
  server: OAuthAuthorizationServer<Cloudflare.Env>
}

/**
 * The issuer and resource origin. Fixed by configuration, never taken from a request's Host
 * header: a token's audience must not depend on what a caller claims the host is.
 */
export function publicOrigin(env: Cloudflare.Env): string {
  return new URL(publicBaseUrl(env)).origin
}

function accessTokenTtl(env: Cloudflare.Env): number {
  const configured = Number(env.OAUTH_ACCESS_TOKEN_TTL ?? ACCESS_TOKEN_TTL_SECONDS)
  if (!Number.isInteger(configured) || configured < 60 || configured > ACCESS_TOKEN_TTL_SECONDS) {
    throw new Error('OAUTH_ACCESS_TOKEN_TTL must be a whole number of seconds from 60 to 900')
  }
  return configured
}

const setups = new Map<string, OAuthSetup>()

export function oauthSetup(env: Cloudflare.Env): OAuthSetup {
  // Before the library runs: what it fetches for a client is held to the address rule.
  guardLibraryFetches(env)
  const origin = publicOrigin(env)
  const ttl = accessTokenTtl(env)
  const key = `${origin} ${ttl}`
  const existing = setups.get(key)
  if (existing) return existing
  const mcpResource = `${origin}/mcp`
  const apiResource = `${origin}/api/v1`
  const server = new OAuthAuthorizationServer<Cloudflare.Env>({
    issuer: origin,
    resources: [mcpResource, apiResource],
    // MCP hosts send `resource`; a client that omits it is connecting an assistant.
    defaultResource: mcpResource,
    authorizeEndpoint: AUTHORIZE_PATH,
    tokenEndpoint: TOKEN_PATH,
    clientRegistrationEndpoint: REGISTER_PATH,
    scopesSupported: [...SCOPES],
    accessTokenTTL: ttl,
    refreshTokenTTL: GRANT_TTL_SECONDS,
    // Client ID Metadata Documents next to dynamic registration (src/auth/client-id-document.ts;
    // wrangler.toml carries the global_fetch_strictly_public flag the library requires).
    clientIdMetadataDocumentEnabled: true,
    // Native hosts' private-use scheme redirects (cursor://…), src/auth/private-use-redirect.ts.
    allowPrivateUseRedirectUris: true,
    // The grant id and its connection's principal (src/auth/oauth-connection.ts) join the props
    // at the code exchange, since the grant exists only then; a grant from before connections
    // gets its connection at its next refresh.
    tokenExchangeCallback: async ({ grantType, grantId, userId, clientId, resource, props }) => {
      const current = OAuthProps.parse(props)
      if (grantType !== 'authorization_code' && (grantType !== 'refresh_token' || current.connectionId)) return undefined
      const connectionId = await connectionPrincipalId(userId, clientId, resource)
      return { newProps: { ...current, grantId, connectionId } satisfies OAuthProps }
    },
  })
  const setup = { origin, mcpResource, apiResource, server }
  setups.set(key, setup)
  return setup
}

/** The library's helpers: consent, grants listing and revocation. */
export function oauthApi(env: Cloudflare.Env): OAuthHelpers {
  return oauthSetup(env).server.getOAuthApi(env)
}
