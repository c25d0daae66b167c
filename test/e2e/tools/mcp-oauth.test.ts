// The whole MCP host flow against `wrangler dev`, with the official MCP SDK client and its
// OAuth support: discovery → dynamic registration → authorization with PKCE → sign-in and
// consent in a real browser → token → tools → refresh after the access token expired →
// disconnect on the assistants page → 401.

import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchBrowser } from '../browser'
import { BrowserOAuthProvider } from '../mcp-oauth-provider'
import { confirmStep, freshEmail, PASSWORD, signUp } from '../pages'

const baseUrl = inject('baseUrl')
const mcpUrl = new URL(`${baseUrl}/mcp`)
/** The access-token lifetime the harness configures (OAUTH_ACCESS_TOKEN_TTL). */
const ACCESS_TOKEN_TTL_MS = 60_000

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

function newClient(): Client {
  return new Client({ name: 'tablewatch-e2e-host', version: '1.0.0' })
}

async function connected(provider: BrowserOAuthProvider): Promise<Client> {
  const client = newClient()
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }))
  return client
}

function dayIn(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000)
  return d.toISOString().slice(0, 10)
}

describe('an MCP host connecting with OAuth', () => {
  it('discovers, registers, gets consent in the browser, uses the tools, refreshes, and is cut off when disconnected', {
    timeout: 240_000,
  }, async () => {
    const email = freshEmail('mcp')
    await signUp(page, baseUrl, email)

    // 1. Connecting without a token: 401 → discovery → registration → authorization URL.
    const provider = await BrowserOAuthProvider.create(page, async (consentPage) => {
      // The browser lands on sign-in first (the user, not the assistant, signs in).
      expect(new URL(consentPage.url()).pathname).toBe('/signin')
      await consentPage.getByLabel('Email').fill(email)
      await consentPage.getByLabel('Password').fill(PASSWORD)
      await consentPage.getByRole('button', { name: 'Sign in' }).click()
      await consentPage.waitForURL((url) => url.pathname === '/oauth/authorize')
      const heading = await consentPage.getByRole('heading', { level: 1 }).innerText()
      expect(heading).toBe('Allow Tablewatch e2e assistant to use your Tablewatch account?')
      expect(await consentPage.locator('main').innerText()).toContain('127.0.0.1')
      expect(await consentPage.getByRole('checkbox', { name: /requests:read/ }).isDisabled()).toBe(true)
      expect(await consentPage.getByRole('checkbox', { name: /requests:write/ }).isChecked()).toBe(true)
      await consentPage.getByRole('button', { name: 'Allow' }).click()
    })
    const first = newClient()
    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider })
    await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError)
    expect(provider.registered?.client_id).toEqual(expect.any(String))
    expect(provider.authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256')
    expect(provider.authorizationUrl?.searchParams.get('resource')).toBe(mcpUrl.href)

    // 2. The browser came back with a code; the SDK exchanges it with the PKCE verifier.
    const code = await provider.callbackCode()
    await transport.finishAuth(code)
    const firstTokens = provider.saved
    expect(firstTokens?.refresh_token).toEqual(expect.any(String))
    expect(firstTokens?.scope?.split(' ').sort()).toEqual(['requests:read', 'requests:write', 'reservations:read', 'restaurants:read'])

    // 3. Tools: list, search, preview, create, get.
    const client = await connected(provider)
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toHaveLength(8)

    const found = await client.callTool({ name: 'svc_find_restaurants', arguments: { q: 'Juniper' } })
    const restaurant = (found.structuredContent as { restaurants: { venue_id: number; time_zone: string }[] }).restaurants[0]
    expect(restaurant).toBeDefined()
    const spec = {
      title: 'E2E dinner',
      venue_ids: [restaurant?.venue_id],
      dates: [dayIn(10)],
      earliest_time: '18:00',
      latest_time: '21:00',
      timezone: restaurant?.time_zone,
      party_size: 2,
      mode: 'alert_only',
      expires_at: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    }
    const preview = await client.callTool({ name: 'svc_preview_request', arguments: { spec } })
    expect(preview.isError).toBeFalsy()
    expect(preview.structuredContent).toMatchObject({ valid: true })

    const created = await client.callTool({
      name: 'svc_create_request',
      arguments: { spec, idempotency_key: `e2e-${crypto.randomUUID()}` },
    })
    expect(created.isError).toBeFalsy()
    const view = created.structuredContent as { id: string; status: string }
    expect(view.status).toBe('active')

    const got = await client.callTool({ name: 'svc_get_request', arguments: { request_id: view.id } })
    expect(got.structuredContent).toMatchObject({ id: view.id, status: 'active' })

    // 4. After the access token's lifetime, the server answers 401 and the SDK refreshes.
    const expiredToken = firstTokens?.access_token ?? ''
    await new Promise((resolve) => setTimeout(resolve, ACCESS_TOKEN_TTL_MS + 2_000))
    const direct = await fetch(mcpUrl, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${expiredToken}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    })
    expect(direct.status).toBe(401)
    const afterExpiry = await client.callTool({ name: 'svc_get_request', arguments: { request_id: view.id } })
    expect(afterExpiry.structuredContent).toMatchObject({ id: view.id })
    expect(provider.saved?.access_token).not.toBe(expiredToken)
    expect(provider.saved?.refresh_token).not.toBe(firstTokens?.refresh_token)
    await client.close()

    // 5. The user disconnects the assistant on the assistants page: tokens stop working.
    await page.goto(`${baseUrl}/assistants`)
    await confirmStep(page, 'Disconnect Tablewatch e2e assistant', 'Disconnect')
    await page.waitForURL(/disconnected=1/)
    expect(await page.locator('.alert-success').innerText()).toContain('Assistant disconnected')
    expect(await page.locator('#connected-assistants').innerText()).toContain('No connected assistants.')

    const revokedToken = provider.saved?.access_token ?? ''
    const refused = await fetch(mcpUrl, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${revokedToken}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }),
    })
    expect(refused.status).toBe(401)
    expect(refused.headers.get('www-authenticate')).toContain(`resource_metadata="${baseUrl}/.well-known/oauth-protected-resource/mcp"`)

    // The SDK cannot refresh a revoked grant either: it would have to send the user to consent again.
    provider.refuseNewConsent()
    await expect(connected(provider)).rejects.toBeInstanceOf(UnauthorizedError)
    await provider.close()
  })
})
