// /mcp as an OAuth protected resource: the library publishes its RFC 9728 metadata, answers
// requests without a usable token with the Bearer challenge that names it, and hands the
// principal to the MCP handler. Personal access tokens are accepted here too.
import { OAuthError, OAuthResourceServer } from '@cloudflare/workers-oauth-provider'
import { type OAuthSetup, oauthSetup } from '../auth/oauth'
import { resolveBearerToken } from '../auth/resolve-token'
import type { Principal } from '../core/principal'
import { SCOPES } from '../core/scopes'
import { AppError } from '../errors'
import { mcpHttpError } from './errors'
import { serveMcp } from './handler'

/** Why a token was refused, per request, so the 401 body can carry the contract's code. */
const refusals = new WeakMap<Request, AppError>()

const servers = new WeakMap<OAuthSetup, OAuthResourceServer<Cloudflare.Env, Principal>>()

function mcpResourceServer(env: Cloudflare.Env): OAuthResourceServer<Cloudflare.Env, Principal> {
  const setup = oauthSetup(env)
  const existing = servers.get(setup)
  if (existing) return existing
  const server = new OAuthResourceServer<Cloudflare.Env, Principal>({
    resourceMetadata: {
      resource: setup.mcpResource,
      authorization_servers: [setup.origin],
      resource_name: 'Tablewatch MCP server',
    },
    // What the tools use, so hosts ask for all of it and the user unticks what they would
    // rather not allow; requests:read is the floor the handler enforces.
    requiredScopes: [...SCOPES],
    validateToken: (env, request) => async (resource, token) => {
      try {
        const principal = await resolveBearerToken(token, env, Date.now(), resource)
        return { props: principal, audience: resource, scope: principal.scopes, userId: principal.userId }
      } catch (err) {
        if (!(err instanceof AppError) || err.status !== 401) throw err
        refusals.set(request, err)
        throw new OAuthError('invalid_token', { description: err.message })
      }
    },
    handler: { fetch: serveMcp },
  })
  servers.set(setup, server)
  return server
}

const missingToken = () =>
  new AppError('unauthorized', 'Connect with OAuth, or send a personal access token as "Authorization: Bearer <token>".')

/** Serves /mcp and its protected-resource metadata document. */
export async function mcpResource(request: Request, env: Cloudflare.Env, ctx: ExecutionContext): Promise<Response> {
  const response = await mcpResourceServer(env).fetch(request, env, ctx)
  if (response.status !== 401) return response
  return mcpHttpError(response, refusals.get(request) ?? missingToken())
}
