// The OAuth protocol endpoints the library serves: RFC 8414 metadata, dynamic client
// registration, the token endpoint (with RFC 7009 revocation), and the RFC 9728 metadata of
// the REST resource. The consent page (authorize endpoint) lives with the pages.
import { OAuthResourceServer } from '@cloudflare/workers-oauth-provider'
import { type Context, Hono } from 'hono'
import { type OAuthSetup, oauthSetup, REGISTER_PATH, TOKEN_PATH } from './oauth'
import { type ConnectionGrant, connectionOfAccessToken } from './oauth-grants'

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

/**
 * What the protocol endpoints tell the rest of the service. src/index.ts wires it to the use
 * cases, since auth sits below them and never imports them.
 */
export interface OAuthRouteHooks {
  /** A token was revoked at the token endpoint (RFC 7009); the library already answered. */
  tokenRevoked(env: Cloudflare.Env, requestUrl: string, token: string): Promise<void>
  /**
   * A grant was established: its authorization code was exchanged for tokens, which the client
   * gets once this returns (so it never reads the state from before).
   */
  grantEstablished(env: Cloudflare.Env, requestUrl: string, grant: ConnectionGrant): Promise<void>
}

/** The connection of the access token in a successful token answer. */
async function grantOfAnswer(env: Cloudflare.Env, answer: Response): Promise<ConnectionGrant | null> {
  const body: unknown = await answer
    .clone()
    .json()
    .catch(() => null)
  const token = body && typeof body === 'object' && 'access_token' in body ? body.access_token : null
  return typeof token === 'string' ? connectionOfAccessToken(env, token) : null
}

/** RFC 7009 revocation has a `token` and no `grant_type`; the library answers it first. */
async function tokenEndpoint(c: Context<OAuthEnv>, hooks: OAuthRouteHooks): Promise<Response> {
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
    await hooks.tokenRevoked(c.env, c.req.url, revoked)
  }
  const grant = response.ok && form?.get('grant_type') === 'authorization_code' ? await grantOfAnswer(c.env, response) : null
  if (grant) {
    // A failure leaves the earlier grant as it was (it is retried at the next reconnect);
    // the client still gets the tokens it was issued.
    await hooks
      .grantEstablished(c.env, c.req.url, grant)
      .catch((err: unknown) => console.error('grant established hook failed', String(err)))
  }
  return response
}

export function createOAuthRoutes(hooks: OAuthRouteHooks) {
  return new Hono<OAuthEnv>()
    .all('/.well-known/oauth-authorization-server', authorizationServer)
    .all('/.well-known/oauth-authorization-server/*', authorizationServer)
    .all(REGISTER_PATH, authorizationServer)
    .all(TOKEN_PATH, (c) => tokenEndpoint(c, hooks))
    .all('/.well-known/oauth-protected-resource/api/v1', apiMetadata)
}
