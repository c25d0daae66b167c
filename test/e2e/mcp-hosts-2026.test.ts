// MCP hosts of 2026 against `wrangler dev` (issue 26): a host identified by a Client ID
// Metadata Document (served by this test over https on loopback, which only local development
// accepts), one connection kept across two authorizations of one client, and approval under the
// 2026-07-28 protocol (input_required with a URL-mode elicitation, then a retry).

import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchBrowser } from './browser'
import { BrowserOAuthProvider } from './mcp-oauth-provider'
import { freshEmail, PASSWORD, signUp } from './pages'

const baseUrl = inject('baseUrl')
const mcpUrl = new URL(`${baseUrl}/mcp`)

let browser: Browser
let context: BrowserContext
let page: Page

beforeAll(async () => {
  browser = await launchBrowser()
  context = await browser.newContext({ baseURL: baseUrl })
  page = await context.newPage()
})
afterAll(async () => {
  await context?.close()
  await browser?.close()
})

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
