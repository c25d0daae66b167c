// MCP hosts of 2026 against `wrangler dev`: a host identified by a Client ID
// Metadata Document (served by this test over https on loopback, which only local development
// accepts), one connection kept across two authorizations of one client, and approval under the
// 2026-07-28 protocol (input_required with a URL-mode elicitation, then a retry).

import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client'
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchBrowser } from '../browser'
import { connectPlatform, createToken, dinnerAt, findVenue } from '../diner'
import { BrowserOAuthProvider } from '../mcp-oauth-provider'
import { freshEmail, newUser, PASSWORD, signUp } from '../pages'

const baseUrl = inject('baseUrl')
const mcpUrl = new URL(`${baseUrl}/mcp`)

let browser: Browser
const contexts: BrowserContext[] = []

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  for (const context of contexts) await context.close()
  await browser?.close()
})

/** A browser page of its own (each test signs up its own user). */
async function freshPage(): Promise<Page> {
  const context = await browser.newContext({ baseURL: baseUrl })
  contexts.push(context)
  return context.newPage()
}

/** Signs in on the page the host opened and allows the connection, checking who asks. */
function signInAndAllow(email: string, expected: { heading: string; publisher?: string }) {
  return async (consentPage: Page) => {
    if (new URL(consentPage.url()).pathname === '/signin') {
      await consentPage.getByLabel('Email').fill(email)
      await consentPage.getByLabel('Password').fill(PASSWORD)
      await consentPage.getByRole('button', { name: 'Sign in' }).click()
      await consentPage.waitForURL((url) => url.pathname === '/oauth/authorize')
    }
    expect(await consentPage.getByRole('heading', { level: 1 }).innerText()).toBe(expected.heading)
    if (expected.publisher) expect(await consentPage.locator('main').innerText()).toContain(`Published by ${expected.publisher}`)
    await consentPage.getByRole('button', { name: 'Allow' }).click()
  }
}

/** Runs the SDK's OAuth flow to the end and returns a connected client. */
async function authorize(provider: BrowserOAuthProvider): Promise<Client> {
  const first = new Client({ name: 'tablewatch-2026-host', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider })
  await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError)
  await transport.finishAuth(await provider.callbackCode())
  const client = new Client({ name: 'tablewatch-2026-host', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }))
  return client
}

/** The client's own https site on loopback, publishing its metadata document. */
async function clientSite(document: (clientId: string) => Record<string, unknown>): Promise<{ server: Server; clientId: string }> {
  const { cert, key } = inject('loopbackTls')
  const server = createServer({ cert, key })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  const clientId = `https://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/client-metadata.json`
  server.on('request', (req, res) => {
    if (req.url !== '/oauth/client-metadata.json') return res.writeHead(404).end()
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'max-age=60' }).end(JSON.stringify(document(clientId)))
  })
  return { server, clientId }
}

describe('a host identified by its Client ID Metadata Document', () => {
  it('completes OAuth with its document URL as client_id (no registration) and calls a tool', { timeout: 180_000 }, async () => {
    const email = freshEmail('cimd')
    const page = await freshPage()
    await signUp(page, baseUrl, email)
    let redirectUri = ''
    const site = await clientSite((clientId) => ({
      client_id: clientId,
      client_name: 'Tablewatch CIMD host',
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    }))
    try {
      const provider = await BrowserOAuthProvider.create(
        page,
        signInAndAllow(email, { heading: 'Allow Tablewatch CIMD host to use your Tablewatch account?', publisher: '127.0.0.1' }),
        site.clientId,
      )
      redirectUri = provider.redirectUrl
      const client = await authorize(provider)
      expect(provider.authorizationUrl?.searchParams.get('client_id')).toBe(site.clientId)
      expect(provider.registered?.client_id ?? site.clientId).toBe(site.clientId)
      const listed = await client.callTool({ name: 'svc_list_requests', arguments: {} })
      expect(listed.isError).toBeFalsy()
      expect(listed.structuredContent).toMatchObject({ requests: [] })
      await client.close()
      await provider.close()
    } finally {
      site.server.close()
    }
  })
})

/** A client calling /mcp with a bearer token the test holds (no OAuth of its own). */
async function clientWithToken(token: string): Promise<Client> {
  const client = new Client({ name: 'tablewatch-2026-device', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { requestInit: { headers: { Authorization: `Bearer ${token}` } } }))
  return client
}

const dayIn = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)

/** An alert_only spec at the first restaurant a search finds. */
async function specFrom(client: Client, mode: 'alert_only' | 'auto_book', title: string): Promise<Record<string, unknown>> {
  const found = await client.callTool({ name: 'svc_find_restaurants', arguments: { q: 'Juniper' } })
  const restaurant = (found.structuredContent as { restaurants: { venue_id: number; time_zone: string }[] }).restaurants[0]
  return {
    title,
    venue_ids: [restaurant?.venue_id],
    dates: [dayIn(12)],
    earliest_time: '18:00',
    latest_time: '21:00',
    timezone: restaurant?.time_zone,
    party_size: 2,
    mode,
    expires_at: new Date(Date.now() + 3 * 86_400_000).toISOString(),
  }
}

describe('one connection across two authorizations of the same client', () => {
  it('keeps both working, and both list the request created through the first', { timeout: 180_000 }, async () => {
    const email = freshEmail('two-devices')
    const page = await freshPage()
    await signUp(page, baseUrl, email)
    const provider = await BrowserOAuthProvider.create(
      page,
      signInAndAllow(email, { heading: 'Allow Tablewatch e2e assistant to use your Tablewatch account?' }),
    )
    const laptop = await authorize(provider)
    const laptopToken = provider.saved?.access_token ?? ''
    const created = await laptop.callTool({
      name: 'svc_create_request',
      arguments: { spec: await specFrom(laptop, 'alert_only', 'Laptop dinner'), idempotency_key: `e2e-${crypto.randomUUID()}` },
    })
    const requestId = (created.structuredContent as { id: string }).id

    // The same client authorizes again (the phone): new consent, new grant, same connection.
    provider.invalidateCredentials('tokens')
    const phone = await authorize(provider)
    const phoneToken = provider.saved?.access_token ?? ''
    expect(phoneToken).not.toBe(laptopToken)

    for (const client of [phone, await clientWithToken(laptopToken)]) {
      const listed = await client.callTool({ name: 'svc_list_requests', arguments: {} })
      expect((listed.structuredContent as { requests: { id: string; status: string }[] }).requests).toEqual([
        expect.objectContaining({ id: requestId, status: 'active' }),
      ])
      await client.close()
    }
    await laptop.close()
    await provider.close()
  })
})

describe('approval under 2026-07-28', () => {
  it('a client declaring URL elicitation gets input_required on create; after approval on the page its retry returns the active request', {
    timeout: 180_000,
  }, async () => {
    const page = await freshPage()
    const email = await newUser(page, baseUrl)
    await connectPlatform(page, baseUrl, `host2026-${email}`)
    const token = await createToken(page, baseUrl, 'Host 2026')
    const venue = await findVenue(baseUrl, token, 'Cassia Room')
    // An early-morning window at a dinner restaurant: nothing to book while the test looks on.
    const spec = dinnerAt(venue, 'auto_book', [21], { title: 'Host 2026 breakfast', earliest_time: '05:00', latest_time: '05:30' })

    // The SDK v2 client, pinned to 2026-07-28: it fulfils input_required by calling this
    // handler, then retries the call with the answer and the server's requestState.
    const client = new ModernClient(
      { name: 'tablewatch-2026-host', version: '1.0.0' },
      { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    )
    const asked: { mode?: string; url?: string }[] = []
    client.setRequestHandler('elicitation/create', async (request) => {
      const params = request.params as { mode?: string; url?: string }
      asked.push(params)
      // The user opens the page, signed in already, and approves.
      await page.goto(String(params.url))
      await page.getByRole('button', { name: 'Approve' }).click()
      await page.waitForURL(/done=approved/)
      return { action: 'accept' }
    })
    await client.connect(new ModernTransport(mcpUrl, { requestInit: { headers: { Authorization: `Bearer ${token}` } } }))
    const created = await client.callTool({
      name: 'svc_create_request',
      arguments: { spec, idempotency_key: `e2e-${crypto.randomUUID()}` },
    })
    expect(asked).toHaveLength(1)
    expect(asked[0]?.mode).toBe('url')
    expect(asked[0]?.url).toMatch(new RegExp(`^${baseUrl}/requests/sr_[^/]+/approve`))
    expect(created.isError).toBeFalsy()
    expect(created.structuredContent).toMatchObject({ status: 'active', title: 'Host 2026 breakfast' })
    expect(String(asked[0]?.url)).toContain(String((created.structuredContent as { id: string }).id))
    await client.close()
  })
})
