// A desktop host's connection, end to end: the official SDK client (as a stdio host) starts
// mcp-remote (the pinned dev dependency, with the arguments of docs/mcp-hosts.md's snippet) against the
// service under wrangler dev. mcp-remote runs OAuth: it registers, prints the authorization URL
// and waits on its loopback callback port; headless Chromium does the sign-in and consent there.
// The host calls tools, and, for an auto_book request, is asked (URL-mode elicitation, which it
// declared) to open the approval page, without losing the tool's result. Then the host loses its
// tokens and reconnects: the same OAuth client runs the flow again, and the earlier requests are
// still there, still active.
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { type ElicitRequest, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { dateIn } from '../api'
import { launchBrowser } from '../browser'
import { freshEmail, PASSWORD, signUp } from '../pages'
import { freePort } from '../ports'
import { mcpRemoteCommand } from '../readme'

const ROOT = resolve(import.meta.dirname, '../../..')
const PROXY = join(ROOT, 'node_modules/mcp-remote/dist/proxy.js')
const baseUrl = inject('baseUrl')

let browser: Browser
let page: Page
let configDir: string

beforeAll(async () => {
  browser = await launchBrowser()
  page = await (await browser.newContext()).newPage()
  configDir = await mkdtemp(join(tmpdir(), 'tablewatch-mcp-remote-'))
})
afterAll(async () => {
  await browser?.close()
  if (configDir) await rm(configDir, { recursive: true, force: true })
})

/** The guide's mcp-remote arguments (docs/mcp-hosts.md), pointed at this service, run with the installed package. */
function proxyArgs(callbackPort: number): string[] {
  const [, , pkg, url, ...rest] = mcpRemoteCommand()
  expect(pkg).toMatch(/^mcp-remote@/)
  const service = new URL(new URL(url ?? '').pathname, baseUrl).href
  // The callback port is fixed so the registered redirect URI stays the same across runs, as
  // mcp-remote's derived port would; a longer wait leaves time for the browser steps.
  return [PROXY, service, String(callbackPort), ...rest, '--auth-timeout', '120']
}

interface Host {
  client: Client
  authorizationUrls: URL[]
  elicitations: ElicitRequest['params'][]
  stderr: () => string
}

/**
 * Starts mcp-remote as a stdio host does, and does in the browser what the user would whenever
 * mcp-remote prints an authorization URL: sign in if needed, then allow.
 */
async function connectHost(callbackPort: number, email: string): Promise<Host> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: proxyArgs(callbackPort),
    // BROWSER: mcp-remote's "open the browser" succeeds without opening one; Chromium follows the
    // URL it prints instead.
    env: { ...process.env, MCP_REMOTE_CONFIG_DIR: configDir, BROWSER: 'true' } as Record<string, string>,
    stderr: 'pipe',
  })
  const authorizationUrls: URL[] = []
  const elicitations: ElicitRequest['params'][] = []
  let output = ''
  let consenting = Promise.resolve()
  transport.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
    const found = /Please authorize this client by visiting:\s*\n(\S+)/.exec(output.slice(output.lastIndexOf('Please authorize')))
    const url = found?.[1] ? new URL(found[1]) : null
    if (url && !authorizationUrls.some((u) => u.href === url.href)) {
      authorizationUrls.push(url)
      consenting = consenting.then(() => consentInBrowser(url, email))
    }
  })
  const client = new Client({ name: 'tablewatch-e2e-desktop-host', version: '1.0.0' }, { capabilities: { elicitation: { url: {} } } })
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    elicitations.push(request.params)
    return { action: 'accept' }
  })
  await client.connect(transport)
  await consenting
  return { client, authorizationUrls, elicitations, stderr: () => output }
}

async function consentInBrowser(url: URL, email: string): Promise<void> {
  await page.goto(url.href)
  if (new URL(page.url()).pathname === '/signin') {
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL((u) => u.pathname === '/oauth/authorize')
  }
  await page.getByRole('button', { name: 'Allow' }).click()
  // Back at mcp-remote's loopback callback, which exchanges the code.
  await page.waitForURL((u) => u.pathname === '/oauth/callback')
}

/** The host lost its tokens: mcp-remote's token file goes, its client registration stays. */
async function forgetTokens(): Promise<number> {
  const files = await readdir(configDir, { recursive: true })
  const tokens = files.filter((f) => f.endsWith('_tokens.json'))
  for (const file of tokens) await rm(join(configDir, file))
  return tokens.length
}

function structured<T>(result: Awaited<ReturnType<Client['callTool']>>): T {
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy()
  return result.structuredContent as T
}

describe('a desktop host through mcp-remote', () => {
  it('signs in with OAuth in the browser, uses the tools, reconnects after losing its tokens, and still sees its active request', {
    timeout: 300_000,
  }, async () => {
    const email = freshEmail('desktop')
    await signUp(page, baseUrl, email)
    const callbackPort = await freePort()

    // 1. First connection: OAuth through mcp-remote, sign-in and consent in Chromium.
    const first = await connectHost(callbackPort, email)
    expect(first.authorizationUrls).toHaveLength(1)
    const clientId = first.authorizationUrls[0]?.searchParams.get('client_id')
    expect(clientId).toEqual(expect.any(String))
    const { tools } = await first.client.listTools()
    expect(tools.map((t) => t.name)).toContain('svc_create_request')

    const found = structured<{ restaurants: { venue_id: number; time_zone: string }[] }>(
      await first.client.callTool({ name: 'svc_find_restaurants', arguments: { q: 'Juniper' } }),
    )
    const venue = found.restaurants[0]
    expect(venue).toBeDefined()
    const spec = (mode: string, days: number) => ({
      title: `Desktop ${mode}`,
      venue_ids: [venue?.venue_id],
      dates: [dateIn(venue?.time_zone ?? 'America/New_York', days)],
      earliest_time: '18:00',
      latest_time: '21:00',
      timezone: venue?.time_zone,
      mode,
      expires_at: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    })
    const watching = structured<{ id: string; status: string }>(
      await first.client.callTool({
        name: 'svc_create_request',
        arguments: { spec: spec('alert_only', 8), idempotency_key: `remote-${crypto.randomUUID()}` },
      }),
    )
    expect(watching.status).toBe('active')

    // An auto_book request: the host declared URL-mode elicitation, so it is asked to open the
    // approval page, and still gets the whole result.
    const booking = structured<{ id: string; status: string; action_url: string }>(
      await first.client.callTool({
        name: 'svc_create_request',
        arguments: { spec: spec('auto_book', 9), idempotency_key: `remote-${crypto.randomUUID()}` },
      }),
    )
    expect(booking.status).toBe('needs_approval')
    expect(first.elicitations).toEqual([
      expect.objectContaining({ mode: 'url', url: booking.action_url, elicitationId: expect.any(String) }),
    ])
    await first.client.close()

    // 2. The host lost its tokens and runs OAuth again with the same client registration.
    expect(await forgetTokens()).toBe(1)
    const again = await connectHost(callbackPort, email)
    expect(again.authorizationUrls).toHaveLength(1)
    expect(again.authorizationUrls[0]?.searchParams.get('client_id')).toBe(clientId)

    // 3. The earlier requests are still visible through the new connection, and still active.
    const listed = structured<{ requests: { id: string; status: string }[] }>(
      await again.client.callTool({ name: 'svc_list_requests', arguments: {} }),
    )
    expect(listed.requests.map((r) => r.id).sort()).toEqual([watching.id, booking.id].sort())
    const still = structured<{ id: string; status: string }>(
      await again.client.callTool({ name: 'svc_get_request', arguments: { request_id: watching.id } }),
    )
    expect(still).toMatchObject({ id: watching.id, status: 'active' })
    const waiting = structured<{ status: string }>(
      await again.client.callTool({ name: 'svc_get_request', arguments: { request_id: booking.id } }),
    )
    expect(waiting.status).toBe('needs_approval')
    await again.client.close()

    // One connection on the Assistants page, not two.
    await page.goto(`${baseUrl}/assistants`)
    expect(
      await page
        .locator('#connected-assistants')
        .getByRole('link', { name: /^Disconnect / })
        .count(),
    ).toBe(1)
  })
})
