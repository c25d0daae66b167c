// The OAuth protocol endpoints the library serves: RFC 8414 metadata, dynamic client
// registration, the token endpoint (with RFC 7009 revocation), and the RFC 9728 metadata of
// the REST resource. The consent page (authorize endpoint) lives with the pages.
import { OAuthResourceServer } from '@cloudflare/workers-oauth-provider'
import { type Context, Hono } from 'hono'
import { depsOf } from '../requests/deps'
import { type OAuthSetup, oauthSetup, REGISTER_PATH, TOKEN_PATH } from './oauth'
import { revokeRequestsOfEndedGrant } from './oauth-grants'

type OAuthEnv = { Bindings: Cloudflare.Env }

/**
 * The one typed adapter at the Hono seam: Hono declares `executionCtx` with its own narrower
 * interface, but at run time it is the Worker's ExecutionContext, which the library needs.
 */
export function workerContext(c: Context): ExecutionContext {
  return c.executionCtx as ExecutionContext
}

const authorizationServer = (c: Context<OAuthEnv>) => oauthSetup(c.env).server.fetch(c.req.raw, c.env, workerContext(c))

/**
 * /api/v1 is authenticated by the REST skin itself (resolveBearerToken accepts PATs and OAuth
 * tokens issued for /api/v1), so its error bodies stay the contract's. This host only
 * publishes the resource's metadata; its handler is never reached.
 */
const apiServers = new WeakMap<OAuthSetup, OAuthResourceServer<Cloudflare.Env>>()
function apiMetadata(c: Context<OAuthEnv>): Promise<Response> {
  const setup = oauthSetup(c.env)
  let server = apiServers.get(setup)
  if (!server) {
    server = new OAuthResourceServer<Cloudflare.Env>({
      resourceMetadata: { resource: setup.apiResource, authorization_servers: [setup.origin], resource_name: 'Tablewatch REST API' },
      validateToken: () => async () => null,
      handler: { fetch: () => new Response(null, { status: 404 }) },
    })
    apiServers.set(setup, server)
  }
  return server.fetch(c.req.raw, c.env, workerContext(c))
}

/** RFC 7009 revocation has a `token` and no `grant_type`; the library answers it first. */
async function tokenEndpoint(c: Context<OAuthEnv>): Promise<Response> {
  const form =
    c.req.method === 'POST'
      ? await c.req.raw
          .clone()
          .formData()
          .catch(() => null)
      : null
  const revoked = form && !form.has('grant_type') ? form.get('token') : null
  const response = await authorizationServer(c)
  if (response.ok && typeof revoked === 'string') {
    await revokeRequestsOfEndedGrant(depsOf(c.env, c.req.url), revoked)
  }
  return response
}

export const oauthRoutes = new Hono<OAuthEnv>()
oauthRoutes.all('/.well-known/oauth-authorization-server', authorizationServer)
oauthRoutes.all('/.well-known/oauth-authorization-server/*', authorizationServer)
oauthRoutes.all(REGISTER_PATH, authorizationServer)
oauthRoutes.all(TOKEN_PATH, tokenEndpoint)
oauthRoutes.all('/.well-known/oauth-protected-resource/api/v1', apiMetadata)
