// The official MCP conformance suite (@modelcontextprotocol/conformance) against /mcp under
// `wrangler dev`: its server scenarios (the 2025 active suite and the 2026-07-28 requirement
// set) with conformance/expected-failures.yml, and its authorization-server scenarios with the
// sign-in and consent done in the browser.
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { type AuthProxy, startAuthProxy } from '../auth-proxy'
import { launchBrowser } from '../browser'
import { freshEmail, PASSWORD, signUp } from '../pages'
import { seededToken } from '../tokens'

const ROOT = resolve(import.meta.dirname, '../../..')
const CLI = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js')
const BASELINE = join(ROOT, 'conformance/expected-failures.yml')
const baseUrl = inject('baseUrl')

let proxy: AuthProxy
let outDir: string

interface Run {
  code: number | null
  output: string
}

/** Runs the suite with the Node that runs vitest (22, which the suite needs); `onLine` sees stdout. */
function conformance(args: string[], onLine: (line: string) => void = () => {}): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } })
    let output = ''
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString()
      for (const line of d.toString().split('\n')) onLine(line.trim())
    })
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    child.on('exit', (code) => done({ code, output }))
  })
}

beforeAll(async () => {
  proxy = await startAuthProxy(baseUrl, await seededToken('conformance'))
  outDir = await mkdtemp(join(tmpdir(), 'tablewatch-conformance-'))
})
afterAll(async () => {
  await proxy?.close()
  if (outDir) await rm(outDir, { recursive: true, force: true })
})

describe('MCP conformance: server', () => {
  it('passes the active suite (server-initialize, ping, tools-list, dns-rebinding-protection …) but for the expected failures', async () => {
    const run = await conformance(['server', '--url', `${proxy.url}/mcp`, '--expected-failures', BASELINE, '-o', join(outDir, 'active')])
    expect(run.output).toMatch(/✓ server-initialize: \d+ passed, 0 failed/)
    expect(run.output).toMatch(/✓ ping: \d+ passed, 0 failed/)
    expect(run.output).toMatch(/✓ tools-list: \d+ passed, 0 failed/)
    expect(run.output).toMatch(/✓ dns-rebinding-protection: \d+ passed, 0 failed/)
    expect(run.code, run.output.slice(-3000)).toBe(0)
  })

  it('passes the 2026-07-28 requirement set (stateless server, header validation …) but for the expected failures', async () => {
    const run = await conformance([
      'server',
      '--url',
      `${proxy.url}/mcp`,
      '--requirements',
      '2026-07-28',
      '--expected-failures',
      BASELINE,
      '-o',
      join(outDir, 'r2026'),
    ])
    expect(run.output).toMatch(/✓ http-header-validation: \d+ passed, 0 failed/)
    expect(run.code, run.output.slice(-3000)).toBe(0)
  })
})

describe('MCP conformance: authorization server', () => {
  let browser: Browser
  let page: Page
  beforeAll(async () => {
    browser = await launchBrowser()
    page = await (await browser.newContext()).newPage()
  })
  afterAll(async () => {
    await browser?.close()
  })

  /** Runs the suite's authorization scenarios for one client, signing in and consenting in the browser. */
  async function authorizationRun(page: Page, email: string, clientId: string, callbackPort: number, out: string): Promise<Run> {
    let consented: Promise<void> = Promise.resolve()
    const run = await conformance(
      [
        'authorization',
        '--url',
        baseUrl,
        '--client-id',
        clientId,
        '--resource',
        `${baseUrl}/mcp`,
        '-p',
        String(callbackPort),
        '-o',
        join(outDir, out),
      ],
      (line) => {
        if (!line.startsWith(`${baseUrl}/oauth/authorize?`)) return
        consented = (async () => {
          await page.goto(line)
          if (new URL(page.url()).pathname === '/signin') {
            await page.getByLabel('Email').fill(email)
            await page.getByLabel('Password').fill(PASSWORD)
            await page.getByRole('button', { name: 'Sign in' }).click()
          }
          await page.getByRole('button', { name: 'Allow' }).click()
        })()
      },
    )
    await consented
    return run
  }

  it('passes metadata discovery (CIMD advertised) and the authorization code grant, with sign-in and consent in the browser', async () => {
    const email = freshEmail('conformance')
    await signUp(page, baseUrl, email)
    const callbackPort = 30_000 + Math.floor(Math.random() * 20_000)
    const registration = await fetch(`${baseUrl}/oauth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client_name: 'MCP conformance suite',
        redirect_uris: [`http://127.0.0.1:${callbackPort}/callback`],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
      }),
    })
    const { client_id: clientId } = (await registration.json()) as { client_id: string }
    const run = await authorizationRun(page, email, clientId, callbackPort, 'auth')
    // Two checks: the metadata, and client_id_metadata_document_supported (a warning when false).
    expect(run.output).toMatch(/✓ authorization-server-metadata-endpoint: 2 passed, 0 failed/)
    expect(run.output).toMatch(/✓ authorization-code-grant: 1 passed, 0 failed/)
    expect(run.code, run.output.slice(-3000)).toBe(0)
  })

  it('passes the authorization code grant for a client identified by its metadata document (CIMD)', async () => {
    const email = freshEmail('conformance-cimd')
    const ownPage = await (await browser.newContext()).newPage()
    await signUp(ownPage, baseUrl, email)
    const callbackPort = 30_000 + Math.floor(Math.random() * 20_000)
    const { cert, key } = inject('loopbackTls')
    const site = createServer({ cert, key })
    await new Promise<void>((ok) => site.listen(0, '127.0.0.1', ok))
    const clientId = `https://127.0.0.1:${(site.address() as AddressInfo).port}/conformance/client.json`
    site.on('request', (_req, res) => {
      const document = {
        client_id: clientId,
        client_name: 'MCP conformance suite (CIMD)',
        redirect_uris: [`http://127.0.0.1:${callbackPort}/callback`],
        token_endpoint_auth_method: 'none',
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(document))
    })
    try {
      const run = await authorizationRun(ownPage, email, clientId, callbackPort, 'auth-cimd')
      expect(run.output).toMatch(/✓ authorization-code-grant: 1 passed, 0 failed/)
      expect(run.code, run.output.slice(-3000)).toBe(0)
    } finally {
      site.close()
    }
  })
})
