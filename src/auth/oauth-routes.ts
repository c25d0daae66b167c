// The OAuth protocol endpoints the library serves: RFC 8414 metadata, dynamic client
// registration, the token endpoint (with RFC 7009 revocation), and the RFC 9728 metadata of
// the REST resource. The consent page (authorize endpoint) lives with the pages.
import { CimdFetchError, OAuthResourceServer } from '@cloudflare/workers-oauth-provider'
import { type Context, Hono } from 'hono'
import { dbOf } from '../db/client'
import { clientDocumentProblem } from './client-document-problem'
import { clientIdsProblem } from './client-id-document'
import { clientIdsOfTokenRequest } from './client-ids'
import { checkRegistration } from './client-metadata'
import { registerFromAddress } from './client-registration'
import { grantObject } from './grant-stub'
import { overlongTokenRequest } from './identifier-limits'
import { type OAuthSetup, oauthApi, oauthSetup, REGISTER_PATH, TOKEN_PATH } from './oauth'
import { type ConnectionGrant, connectionOfAccessToken, grantOfToken } from './oauth-grants'
import { recordIssuedRefreshToken } from './refresh-reuse'
import { oauthErrorAnswer, responseOf, tokenCallOf } from './token-call'

type OAuthEnv = { Bindings: Cloudflare.Env }

/**
 * The one typed adapter at the Hono seam: Hono declares `executionCtx` with its own narrower
 * interface, but at run time it is the Worker's ExecutionContext, which the library needs.
 */
export function workerContext(c: Context): ExecutionContext {
  return c.executionCtx as ExecutionContext
}

const authorizationServer = (c: Context<OAuthEnv>) => oauthSetup(c.env).server.fetch(c.req.raw, c.env, workerContext(c))

/** Where a host's developer reads how to connect, and that a metadata document beats registering. */
const SERVICE_DOCUMENTATION_PATH = '/developers#mcp'

/**
 * Token endpoint methods every client can use. The library also lists `private_key_jwt` (a
 * metadata document with keys may use it), but registration refuses it, so a client that picks
 * it from the metadata fails; a metadata document offering it still works, as it always offers
 * `none` too or names its keys, which the library checks whatever the list says.
 */
const ADVERTISED_AUTH_METHODS = new Set(['none', 'client_secret_basic', 'client_secret_post'])

/**
 * RFC 8414 metadata, as the library writes it (`client_id_metadata_document_supported: true`,
 * which MCP clients read as "use a Client ID Metadata Document rather than registering"), plus
 * `service_documentation`, the page that says so to people, and without `private_key_jwt`
 * among the token endpoint's methods (above).
 */
async function authorizationServerMetadata(c: Context<OAuthEnv>): Promise<Response> {
  const answer = await authorizationServer(c)
  if (answer.status !== 200) return answer
  const metadata: unknown = await answer
    .clone()
    .json()
    .catch(() => null)
  if (!metadata || typeof metadata !== 'object') return answer
  const methods = 'token_endpoint_auth_methods_supported' in metadata ? metadata.token_endpoint_auth_methods_supported : []
  const {
    token_endpoint_auth_signing_alg_values_supported: _signing,
    token_endpoint_auth_methods_supported: _methods,
    ...rest
  } = metadata as Record<string, unknown>
  const documented = {
    ...rest,
    token_endpoint_auth_methods_supported: (Array.isArray(methods) ? methods : []).filter((m) => ADVERTISED_AUTH_METHODS.has(m)),
    service_documentation: `${oauthSetup(c.env).origin}${SERVICE_DOCUMENTATION_PATH}`,
  }
  const headers = new Headers(answer.headers)
  headers.delete('Content-Length')
  return new Response(JSON.stringify(documented), { status: 200, headers })
}

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
 * What the protocol endpoints need from the rest of the service. src/index.ts wires them to the
 * use cases, since auth sits below them and never imports them.
 */
export interface OAuthRouteHooks {
  /**
   * An RFC 7009 revocation (`revoke` lets the library answer it). The hook compares what holds
   * before and after, so it decides what the revocation really ended.
   */
  revokeToken(env: Cloudflare.Env, requestUrl: string, token: string, revoke: () => Promise<Response>): Promise<Response>
  /** A refresh token was replayed: the grant must end, with its tokens and its requests. */
  endReplayedGrant(env: Cloudflare.Env, requestUrl: string, grant: { userId: string; grantId: string }): Promise<void>
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

/**
 * Whether the library answers the form as an RFC 7009 revocation: its own predicate
 * (`!body.grant_type && !!body.token`, dist/oauth-provider.js, parseTokenEndpointRequest), so an
 * empty `grant_type` is a revocation here too. A repeated field the library refuses whatever it is.
 */
function isRevocation(form: FormData): boolean {
  const grantType = form.get('grant_type')
  const token = form.get('token')
  return !grantType && typeof token === 'string' && token !== ''
}

/**
 * The token endpoint, answered by the library, with checks around it: every client id the request
 * carries (src/auth/client-ids.ts) is held to the metadata-document address rule before the
 * library could fetch it; a refresh, and an RFC 7009 revocation (a `token` and no or an empty `grant_type`),
 * of a token that names a grant run in that grant's object, one at a time
 * (src/auth/grant-object.ts); a revocation goes through the revokeToken hook.
 */
async function tokenEndpoint(c: Context<OAuthEnv>, hooks: OAuthRouteHooks): Promise<Response> {
  const arrivedAt = Date.now()
  const form =
    c.req.method === 'POST'
      ? await c.req.raw
          .clone()
          .formData()
          .catch(() => null)
      : null
  const overlong = overlongTokenRequest(c.req.raw, form)
  if (overlong) return overlong
  const addressProblem = clientIdsProblem(c.env, clientIdsOfTokenRequest(form, c.req.header('Authorization') ?? null))
  if (addressProblem) return c.json({ error: 'invalid_client', error_description: addressProblem }, 401, { 'Cache-Control': 'no-store' })
  const grantType = form?.get('grant_type') ?? null
  const revoked = form?.get('token')
  if (form && isRevocation(form) && typeof revoked === 'string') {
    const grant = grantOfToken(revoked)
    const clientIds = clientIdsOfTokenRequest(form, c.req.header('Authorization') ?? null)
    const revoke = grant
      ? async () => responseOf(await grantObject(c.env, grant).revoke(await tokenCallOf(c.req.raw), revoked, clientIds))
      : () => authorizationServer(c)
    return hooks.revokeToken(c.env, c.req.url, revoked, revoke)
  }
  const refreshToken = form?.get('refresh_token')
  const refreshed = grantType === 'refresh_token' && typeof refreshToken === 'string' ? grantOfToken(refreshToken) : null
  if (refreshed && typeof refreshToken === 'string') {
    const call = await tokenCallOf(c.req.raw)
    const outcome = await grantObject(c.env, refreshed)
      .refresh(call, refreshToken, arrivedAt, clientIdsOfTokenRequest(form, c.req.header('Authorization') ?? null))
      .catch((err: unknown) => {
        console.error('grant object refresh failed', String(err))
        return null
      })
    if (!outcome) return refreshUnavailable()
    // The object refuses the grant's refreshes from now on; its end, tokens and requests, is the use case's.
    if (outcome.replay) await hooks.endReplayedGrant(c.env, c.req.url, outcome.replay)
    return responseOf(outcome.answer)
  }
  const answer = await withClientDocumentProblem(
    c.env,
    await authorizationServer(c),
    clientIdsOfTokenRequest(form, c.req.header('Authorization') ?? null),
  )
  const grant = answer.ok && grantType === 'authorization_code' ? await grantOfAnswer(c.env, answer) : null
  if (grant) {
    await recordIssuedRefreshToken(dbOf(c.env.DB), answer, 'code', arrivedAt)
    // A failure leaves the earlier grant as it was (it is retried at the next reconnect);
    // the client still gets the tokens it was issued.
    await hooks
      .grantEstablished(c.env, c.req.url, grant)
      .catch((err: unknown) => console.error('grant established hook failed', String(err)))
  }
  return answer
}

/**
 * The library's "Client not found" for a client whose id is a metadata document URL, with the
 * cause a host's developer can act on (src/auth/client-document-problem.ts). Looking the client
 * up again costs no second fetch: the outbound guard keeps each document's answer a minute.
 */
async function withClientDocumentProblem(env: Cloudflare.Env, answer: Response, clientIds: string[]): Promise<Response> {
  const documentId = clientIds.find((id) => id.startsWith('https://'))
  if (answer.status !== 401 || !documentId) return answer
  const body: unknown = await answer
    .clone()
    .json()
    .catch(() => null)
  if (!body || typeof body !== 'object' || !('error_description' in body) || body.error_description !== 'Client not found') return answer
  const cause = await oauthApi(env)
    .lookupClient(documentId)
    .then(() => null)
    .catch((err: unknown) => (err instanceof CimdFetchError ? clientDocumentProblem(err.detail) : null))
  if (!cause) return answer
  const headers = new Headers(answer.headers)
  headers.delete('Content-Length')
  return new Response(JSON.stringify({ ...body, error_description: cause }), { status: 401, headers })
}

/** What a refresh answers when its grant's object failed (a restart): try again. */
const refreshUnavailable = () =>
  oauthErrorAnswer('temporarily_unavailable', 'The service could not refresh this token just now. Try again.', 503)

/**
 * Dynamic client registration, with this service's caps on what a client may register, and, for a
 * request whose address Cloudflare names, the per-address budgets and the sharing of identical
 * public registrations (src/auth/client-registration.ts).
 */
async function registrationEndpoint(c: Context<OAuthEnv>): Promise<Response> {
  if (c.req.method !== 'POST') return authorizationServer(c)
  const checked = checkRegistration(await c.req.text())
  if (!checked.ok) return c.json({ error: 'invalid_client_metadata', error_description: checked.description }, 400)
  const headers = new Headers(c.req.raw.headers)
  headers.delete('content-length')
  const request = new Request(c.req.url, { method: 'POST', headers, body: checked.body })
  const address = c.req.header('CF-Connecting-IP')
  if (address) return registerFromAddress(c.env, request, address, checked.body)
  return oauthSetup(c.env).server.fetch(request, c.env, workerContext(c))
}

export function createOAuthRoutes(hooks: OAuthRouteHooks) {
  return new Hono<OAuthEnv>()
    .all('/.well-known/oauth-authorization-server', authorizationServerMetadata)
    .all('/.well-known/oauth-authorization-server/*', authorizationServerMetadata)
    .all(REGISTER_PATH, registrationEndpoint)
    .all(TOKEN_PATH, (c) => tokenEndpoint(c, hooks))
    .all('/.well-known/oauth-protected-resource/api/v1', apiMetadata)
}
