// An SDK 1.x host (@modelcontextprotocol/sdk 1.32.2) after its access token expired, against
// `wrangler dev`: it fires four tool calls at once, each gets a 401, and the SDK sends four
// refreshes of the same refresh token in parallel. Duplicates of one refresh inside the window
// get the rotation's own answer, so all four calls succeed and the user is not sent to consent
// a second time (a one-winner rule made the SDK wipe its tokens and open the browser again).
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchBrowser } from '../browser'
import { BrowserOAuthProvider } from '../mcp-oauth-provider'
import { freshEmail, PASSWORD, signUp } from '../pages'

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

describe('an SDK 1.x host whose access token expired', () => {
  it('makes four tool calls at once: all four succeed, with one consent in all', { timeout: 240_000 }, async () => {
    const email = freshEmail('parallel')
    await signUp(page, baseUrl, email)
    let consents = 0
    const provider = await BrowserOAuthProvider.create(page, async (consentPage) => {
      consents++
      if (new URL(consentPage.url()).pathname === '/signin') {
        await consentPage.getByLabel('Email').fill(email)
        await consentPage.getByLabel('Password').fill(PASSWORD)
        await consentPage.getByRole('button', { name: 'Sign in' }).click()
        await consentPage.waitForURL((url) => url.pathname === '/oauth/authorize')
      }
      await consentPage.getByRole('button', { name: 'Allow' }).click()
    })
    const first = new Client({ name: 'sdk1-host', version: '1.0.0' })
    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider })
    await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError)
    await transport.finishAuth(await provider.callbackCode())
    expect(consents).toBe(1)
    const issued = provider.saved
    expect(issued?.refresh_token).toEqual(expect.any(String))

    const client = new Client({ name: 'sdk1-host', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }))
    await new Promise((resolve) => setTimeout(resolve, ACCESS_TOKEN_TTL_MS + 2_000))

    // Four calls at once on the expired token: four 401s, four parallel refreshes of one token.
    const calls = await Promise.allSettled([
      client.callTool({ name: 'svc_find_restaurants', arguments: { q: 'Juniper' } }),
      client.callTool({ name: 'svc_list_requests', arguments: {} }),
      client.callTool({ name: 'svc_find_restaurants', arguments: { q: 'Cassia' } }),
      client.callTool({ name: 'svc_list_requests', arguments: { limit: 5 } }),
    ])
    for (const call of calls) {
      expect(call.status, call.status === 'rejected' ? String(call.reason) : '').toBe('fulfilled')
      if (call.status === 'fulfilled') expect(call.value.isError).toBeFalsy()
    }
    expect(consents).toBe(1)
    // The host holds a fresh pair, and it works.
    expect(provider.saved?.access_token).not.toBe(issued?.access_token)
    expect(provider.saved?.refresh_token).not.toBe(issued?.refresh_token)
    const after = await client.callTool({ name: 'svc_list_requests', arguments: {} })
    expect(after.isError).toBeFalsy()
    expect(consents).toBe(1)
    await client.close()
    await provider.close()
  })
})
