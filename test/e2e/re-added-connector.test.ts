// A connector removed and re-added, against `wrangler dev`, with the official MCP SDK client: the
// host forgets its registration and tokens and registers again, as a new client (confidential,
// so never the earlier one) with the same name and redirect URI. In the browser the consent page
// offers to continue the earlier connection, naming its request; the user chooses it, and over
// MCP `svc_list_requests` shows the earlier request while the earlier tokens stop working.

import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { dateIn } from './api'
import { launchBrowser, screenshotBoth } from './browser'
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

/** Connects the SDK client, going through the browser's consent when the server asks for it. */
async function connectedClient(provider: BrowserOAuthProvider): Promise<Client> {
  const client = new Client({ name: 'tablewatch-e2e-host', version: '1.0.0' })
  try {
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }))
    return client
  } catch (err) {
    // Anything but "authorize first" (a failed check on the consent page, say) ends the test here.
    if (!(err instanceof UnauthorizedError)) throw err
    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider })
    await transport.finishAuth(await provider.callbackCode())
    const connected = new Client({ name: 'tablewatch-e2e-host', version: '1.0.0' })
    await connected.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }))
    return connected
  }
}

const listedIds = async (client: Client) =>
  ((await client.callTool({ name: 'svc_list_requests', arguments: {} })).structuredContent as { requests: { id: string }[] }).requests.map(
    (r) => r.id,
  )

describe('a connector removed and re-added', () => {
  it('is offered its old connection on the consent page and, once the user accepts, lists the earlier requests', {
    timeout: 240_000,
  }, async () => {
    const email = freshEmail('readd')
    await signUp(page, baseUrl, email)
    let consents = 0
    const provider = await BrowserOAuthProvider.create(page, async (consentPage) => {
      consents += 1
      if (new URL(consentPage.url()).pathname === '/signin') {
        await consentPage.getByLabel('Email').fill(email)
        await consentPage.getByLabel('Password').fill(PASSWORD)
        await consentPage.getByRole('button', { name: 'Sign in' }).click()
        await consentPage.waitForURL((url) => url.pathname === '/oauth/authorize')
      }
      if (consents === 1) {
        expect(await consentPage.getByRole('radio').count()).toBe(0)
        await consentPage.getByRole('button', { name: 'Allow' }).click()
        return
      }
      // The re-added connector: the page names the earlier connection's request; a new one is pre-selected.
      const earlier = consentPage.getByRole('group', { name: 'You connected an app called Tablewatch e2e assistant before' })
      expect(await earlier.innerText()).toContain('“Anniversary dinner”')
      expect(await consentPage.getByRole('radio', { name: /Start a new connection/ }).isChecked()).toBe(true)
      await screenshotBoth(consentPage, 'consent-continue-connection')
      await consentPage.emulateMedia({ colorScheme: 'dark' })
      await screenshotBoth(consentPage, 'consent-continue-connection-dark')
      await consentPage.emulateMedia({ colorScheme: 'light' })
      await consentPage.getByRole('radio', { name: /Continue the connection of .*, with its 1 request/ }).check()
      await consentPage.getByRole('button', { name: 'Allow' }).click()
    })

    // The first connection makes a request.
    const first = await connectedClient(provider)
    const firstClientId = provider.registered?.client_id
    const found = await first.callTool({ name: 'svc_find_restaurants', arguments: { q: 'Juniper' } })
    const restaurant = (found.structuredContent as { restaurants: { venue_id: number; time_zone: string }[] }).restaurants[0]
    const spec = {
      title: 'Anniversary dinner',
      venue_ids: [restaurant?.venue_id],
      dates: [dateIn(restaurant?.time_zone ?? 'America/New_York', 10)],
      earliest_time: '18:00',
      latest_time: '21:00',
      timezone: restaurant?.time_zone,
      party_size: 2,
      mode: 'alert_only',
      expires_at: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    }
    const created = await first.callTool({ name: 'svc_create_request', arguments: { spec, idempotency_key: `e2e-${crypto.randomUUID()}` } })
    const requestId = (created.structuredContent as { id: string }).id
    expect(await listedIds(first)).toEqual([requestId])
    const firstToken = provider.saved?.access_token ?? ''
    await first.close()

    // Removed and re-added: the host forgets everything and registers again, a new client.
    provider.invalidateCredentials('all')
    provider.tokenEndpointAuthMethod = 'client_secret_post'
    const again = await connectedClient(provider)
    expect(consents).toBe(2)
    expect(provider.registered?.client_id).not.toBe(firstClientId)
    expect(await listedIds(again)).toEqual([requestId])
    await again.close()

    const earlierToken = await fetch(mcpUrl, {
      method: 'POST',
      headers: { Authorization: `Bearer ${firstToken}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    })
    expect(earlierToken.status).toBe(401)
    await provider.close()
  })
})
