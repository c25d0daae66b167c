// `npm start -- --port N` and `PORT=N npm start` serve on N, and the OAuth issuer and the MCP
// resource follow that port (PUBLIC_BASE_URL left unset, as in local development). Runs
// scripts/start.mjs itself with its own state directory and dev registry, beside the suite's
// service. What it prints is one quiet screen, also on this machine without a network: wrangler's
// output goes to the log file the screen names.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { printed } from '../../helpers/process-output'
import { type NpmStart, npmStart, ROOT, stopNpmStart, waitForHealth } from '../npm-start'
import { freePort } from '../ports'

let started: NpmStart | null = null

async function expectServedOn(port: number): Promise<void> {
  const origin = `http://localhost:${port}`
  if (!started) throw new Error('npm start was not started')
  await waitForHealth(started, origin)
  const as = (await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>
  expect(as).toMatchObject({
    issuer: origin,
    token_endpoint: `${origin}/oauth/token`,
    protected_resources: [`${origin}/mcp`, `${origin}/api/v1`],
  })
  const prm = (await (await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>
  expect(prm).toMatchObject({ resource: `${origin}/mcp`, authorization_servers: [origin] })
  const challenge = await fetch(`${origin}/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })
  expect(challenge.status).toBe(401)
  expect(challenge.headers.get('WWW-Authenticate')).toContain(`resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`)
  await expectNextSteps(origin)
  expectOneQuietScreen()
}

/** Once up, npm start prints the URL, how to get a token and where the outbox is. */
async function expectNextSteps(origin: string): Promise<void> {
  if (!started) throw new Error('npm start was not started')
  const shown = await printed(started, /^Tablewatch is up: /m, 'npm start', 15_000)
  const steps = shown.slice(shown.indexOf('Tablewatch is up'))
  expect(steps).toContain(`Tablewatch is up: ${origin}`)
  expect(steps).toContain('npm run -s dev:token -- --email')
  expect(steps).toContain(`${origin}/outbox`)
  expect(steps).toContain('Open a matching table now')
}

/** One screen, no stack trace (wrangler fetched `request.cf` from the network and printed two); the rest is in the named log. */
function expectOneQuietScreen(): void {
  const printed = started?.output() ?? ''
  expect(printed.trimEnd().split('\n').length, printed).toBeLessThanOrEqual(24)
  expect(printed).not.toMatch(/^\s+at /m)
  expect(printed).not.toContain('ENOTFOUND')
  const logFile = /^Full logs: (.+)$/m.exec(printed)?.[1]
  expect(logFile, printed).toBeDefined()
  const log = readFileSync(resolve(ROOT, logFile ?? ''), 'utf8')
  expect(log).toContain('0000_init.sql') // the migrations wrangler applied
  expect(log).toContain('Ready on')
  expect(log).not.toContain('workers.cloudflare.com') // nothing tried the network
}

afterEach(async () => {
  if (started) await stopNpmStart(started)
  started = null
})

describe('npm start on another port', () => {
  it('serves on `--port N`, with the issuer and the MCP resource on N', { timeout: 180_000 }, async () => {
    const port = await freePort()
    started = await npmStart(['--port', String(port)])
    await expectServedOn(port)
  })

  it('serves on PORT=N, with the issuer and the MCP resource on N', { timeout: 180_000 }, async () => {
    const port = await freePort()
    started = await npmStart([], { PORT: String(port) })
    await expectServedOn(port)
  })
})
