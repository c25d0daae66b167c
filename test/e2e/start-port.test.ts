// `npm start -- --port N` and `PORT=N npm start` serve on N, and the OAuth issuer and the MCP
// resource follow that port (PUBLIC_BASE_URL left unset, as in local development). Runs
// scripts/start.mjs itself with its own state directory and dev registry, beside the suite's
// service.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { freePort } from './ports'

const ROOT = resolve(import.meta.dirname, '../..')
let started: { child: ChildProcess; dir: string } | null = null

const keyIn = (path: string) =>
  existsSync(path) ? /^\s*PLATFORM_API_KEY\s*=\s*["']?([^"'\s]+)/m.exec(readFileSync(path, 'utf8'))?.[1] : undefined

/**
 * npm start keeps sandbox/.dev.vars on the platform API key of .dev.vars. The suite's sandbox is
 * running on sandbox/.dev.vars's key, so .dev.vars is given that key first (both are local,
 * random), and start.mjs finds nothing to change under the running sandbox.
 */
function alignLocalApiKey(): void {
  const sandboxKey = keyIn(join(ROOT, 'sandbox/.dev.vars'))
  if (!sandboxKey) throw new Error('the suite set-up writes sandbox/.dev.vars')
  const path = join(ROOT, '.dev.vars')
  const text = existsSync(path) ? readFileSync(path, 'utf8') : ''
  if (keyIn(path) === sandboxKey) return
  const others = text.split('\n').filter((line) => line.trim() !== '' && !/^\s*PLATFORM_API_KEY\s*=/.test(line))
  writeFileSync(path, [...others, `PLATFORM_API_KEY=${sandboxKey}`, ''].join('\n'), { mode: 0o600 })
}

async function npmStart(args: string[], env: Record<string, string>): Promise<void> {
  alignLocalApiKey()
  const dir = await mkdtemp(join(tmpdir(), 'tablewatch-start-'))
  const inspector = await freePort()
  // The Node that runs vitest is the project's Node 22, which `npm start` uses too.
  const child = spawn(
    process.execPath,
    [
      'scripts/start.mjs',
      ...args,
      '--persist-to',
      join(dir, 'state'),
      '--inspector-port',
      String(inspector),
      '--show-interactive-dev-session=false',
    ],
    {
      cwd: ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true', WRANGLER_REGISTRY_PATH: join(dir, 'registry'), ...env },
      detached: true,
      stdio: 'ignore',
    },
  )
  started = { child, dir }
}

async function waitForHealth(origin: string): Promise<void> {
  const deadline = Date.now() + 150_000
  while (Date.now() < deadline) {
    if (started?.child.exitCode !== null) throw new Error(`npm start exited with ${started?.child.exitCode}`)
    const ok = await fetch(`${origin}/health`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) return
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error(`${origin}/health did not answer`)
}

async function expectServedOn(port: number): Promise<void> {
  const origin = `http://localhost:${port}`
  await waitForHealth(origin)
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
}

afterEach(async () => {
  if (!started) return
  const { child, dir } = started
  started = null
  if (child.exitCode === null && child.pid !== undefined) {
    const exited = new Promise((ok) => child.on('exit', ok))
    process.kill(-child.pid, 'SIGTERM')
    const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 10_000)
    await exited
    clearTimeout(timer)
  }
  await rm(dir, { recursive: true, force: true })
})

describe('npm start on another port', () => {
  it('serves on `--port N`, with the issuer and the MCP resource on N', { timeout: 180_000 }, async () => {
    const port = await freePort()
    await npmStart(['--port', String(port)], {})
    await expectServedOn(port)
  })

  it('serves on PORT=N, with the issuer and the MCP resource on N', { timeout: 180_000 }, async () => {
    const port = await freePort()
    await npmStart([], { PORT: String(port) })
    await expectServedOn(port)
  })
})
