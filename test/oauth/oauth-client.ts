// The OAuth client side for the workerd suites: dynamic registration, PKCE, the browser part
// (sign-in and consent through the pages, with a cookie-keeping WebClient), token calls.

import { env, SELF } from 'cloudflare:test'
import type { JsonBody } from '../helpers/json'
import { WebClient } from '../web/web-client'

export const ORIGIN = 'http://localhost:8787'
export const MCP_RESOURCE = `${ORIGIN}/mcp`
export const API_RESOURCE = `${ORIGIN}/api/v1`
export const REDIRECT_URI = 'http://127.0.0.1:33418/callback'

export interface RegisteredClient {
  client_id: string
  client_secret?: string
  redirect_uris: string[]
}

export async function register(metadata: Record<string, unknown> = {}): Promise<RegisteredClient> {
  const res = await SELF.fetch(`${ORIGIN}/oauth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Test Assistant',
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...metadata,
    }),
  })
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${await res.text()}`)
  return (await res.json()) as RegisteredClient
}

function base64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '')
}

export async function pkcePair(): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64Url(crypto.getRandomValues(new Uint8Array(32)))
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)))
  return { verifier, challenge: base64Url(digest) }
}

export interface AuthorizeParams {
  client: RegisteredClient
  challenge?: string | undefined
  method?: string | undefined
  /** The scope parameter; `null` leaves it out (the client asks for no particular scopes). */
  scope?: string | null
  resource?: string
  redirectUri?: string
  state?: string
}

export function authorizePath(p: AuthorizeParams): string {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: p.client.client_id,
    redirect_uri: p.redirectUri ?? REDIRECT_URI,
    state: p.state ?? 'state-123',
    resource: p.resource ?? MCP_RESOURCE,
  })
  if (p.scope !== null) query.set('scope', p.scope ?? 'restaurants:read requests:read requests:write reservations:read')
  if (p.challenge !== undefined) query.set('code_challenge', p.challenge)
  if (p.method !== undefined) query.set('code_challenge_method', p.method)
  return `/oauth/authorize?${query}`
}

/** A browser with a signed-in user of the pages. */
export async function signedInBrowser(): Promise<{ web: WebClient; userId: string }> {
  const web = new WebClient(ORIGIN)
  const email = await web.newUser()
  const row = await env.DB.prepare('select id from users where email = ?').bind(email).first<{ id: string }>()
  if (!row) throw new Error('signed-up user not found')
  return { web, userId: row.id }
}

export function formFields(html: string): { handle: string; csrf: string } {
  const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1]
  const csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1]
  if (!handle || !csrf) throw new Error('no consent form on the page')
  return { handle, csrf }
}

/** Opens the consent page, approves the given scopes, and returns the redirect back to the client. */
export async function consent(web: WebClient, path: string, scopes: string[]): Promise<URL> {
  const page = await web.get(path)
  if (page.status !== 200) throw new Error(`consent page answered ${page.status} ${page.headers.get('location')}`)
  const { handle, csrf } = formFields(await page.text())
  const res = await web.post(path, { handle, _csrf: csrf, decision: 'approve', scope: scopes })
  const location = res.headers.get('location')
  if (res.status !== 302 || !location) throw new Error(`approval answered ${res.status}: ${await res.text()}`)
  return new URL(location)
}

export async function tokenRequest(form: Record<string, string>): Promise<{ status: number; body: JsonBody }> {
  const res = await SELF.fetch(`${ORIGIN}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  })
  const text = await res.text()
  return { status: res.status, body: text ? (JSON.parse(text) as JsonBody) : {} }
}

export function exchangeCode(client: RegisteredClient, code: string, verifier: string, resource = MCP_RESOURCE) {
  return tokenRequest({
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
    client_id: client.client_id,
    code_verifier: verifier,
    resource,
  })
}

export function refresh(client: RegisteredClient, refreshToken: string) {
  return tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: client.client_id })
}

export interface Connection {
  client: RegisteredClient
  userId: string
  web: WebClient
  accessToken: string
  refreshToken: string
  scope: string
}

/** The whole flow: register, authorize with PKCE, sign in, consent, exchange the code. */
export async function connect(
  options: { scopes?: string[]; resource?: string; browser?: { web: WebClient; userId: string }; client?: RegisteredClient } = {},
): Promise<Connection> {
  const client = options.client ?? (await register())
  const { web, userId } = options.browser ?? (await signedInBrowser())
  const { verifier, challenge } = await pkcePair()
  const resource = options.resource ?? MCP_RESOURCE
  const back = await consent(
    web,
    authorizePath({ client, challenge, method: 'S256', resource }),
    options.scopes ?? ['restaurants:read', 'requests:read', 'requests:write', 'reservations:read'],
  )
  const code = back.searchParams.get('code')
  if (!code) throw new Error(`no code in ${back}`)
  const tokens = await exchangeCode(client, code, verifier, resource)
  if (tokens.status !== 200) throw new Error(`code exchange failed: ${JSON.stringify(tokens.body)}`)
  return { client, userId, web, accessToken: tokens.body.access_token, refreshToken: tokens.body.refresh_token, scope: tokens.body.scope }
}

/** The Client ID Metadata Document a client's site publishes at `clientId` (an https URL). */
export const metadataDocument = (clientId: string) => ({
  client_id: clientId,
  client_name: 'Example Assistant',
  redirect_uris: [REDIRECT_URI],
  token_endpoint_auth_method: 'none',
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
})
