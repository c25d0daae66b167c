// Starts the service under `wrangler dev` for the end-to-end suites: its own local state in a
// temporary --persist-to directory, D1 migrated first, the sandbox platform alongside when its
// config exists; waits until /health answers; stops it (and its children) afterwards.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the running service, e.g. http://localhost:43123. */
    baseUrl: string
    /** Whether the sandbox platform runs alongside (sandbox/wrangler.toml existed). */
    sandbox: boolean
    /** The --persist-to directory of the running service (for `wrangler d1 execute`). */
    statePath: string
  }
}

const ROOT = resolve(import.meta.dirname, '../..')
const WRANGLER = join(ROOT, 'node_modules/wrangler/bin/wrangler.js')
const SANDBOX_CONFIG = join(ROOT, 'sandbox/wrangler.toml')
const READY_TIMEOUT_MS = 180_000

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((ok) => server.close(() => ok()))
  return port
}

/** Runs wrangler with the Node that runs vitest (the project's Node 22, not the system's). */
function wrangler(args: string[], logFile: string): ChildProcess {
  const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true', NO_COLOR: '1', WRANGLER_LOG_PATH: logFile }
  return spawn(process.execPath, [WRANGLER, ...args], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
}

async function run(args: string[], logFile: string): Promise<void> {
  const child = wrangler(args, logFile)
  let output = ''
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()))
  const code = await new Promise<number | null>((ok) => child.on('exit', ok))
  if (code !== 0) throw new Error(`wrangler ${args.join(' ')} exited with ${code}:\n${output}`)
}

async function waitForHealth(baseUrl: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited early (${child.exitCode}):\n${log()}`)
    try {
      const res = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(2_000) })
      if (res.ok) return
    } catch {
      // not listening yet
    }
    await new Promise((ok) => setTimeout(ok, 500))
  }
  throw new Error(`wrangler dev did not become ready within ${READY_TIMEOUT_MS / 1000} s:\n${log()}`)
}

async function sandboxApiKey(): Promise<string> {
  const path = join(ROOT, 'sandbox/.dev.vars')
  const existing = await readFile(path, 'utf8').catch(() => '')
  const found = /^\s*PLATFORM_API_KEY\s*=\s*["']?([^"'\s]+)/m.exec(existing)?.[1]
  if (found) return found
  const key = crypto.randomUUID().replaceAll('-', '')
  await writeFile(path, `${existing}${existing === '' || existing.endsWith('\n') ? '' : '\n'}PLATFORM_API_KEY=${key}\n`, { mode: 0o600 })
  return key
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return
  const exited = new Promise((ok) => child.on('exit', ok))
  process.kill(-child.pid, 'SIGTERM') // the whole group: wrangler and its workerd
  const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 10_000)
  await exited
  clearTimeout(timer)
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'tablewatch-e2e-'))
  const state = join(dir, 'state')
  const logFile = join(dir, 'wrangler.log')
  const sandbox = existsSync(SANDBOX_CONFIG)
  // The service's secrets come from a temporary env file. The sandbox reads its own
  // sandbox/.dev.vars (gitignored; `npm start` writes it the same way), so the service gets the
  // API key found there, or a new one written there.
  const apiKey = sandbox ? await sandboxApiKey() : `e2e-${crypto.randomUUID()}`
  const tokenKey = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')
  const envFile = join(dir, '.dev.vars')
  await writeFile(envFile, `PLATFORM_API_KEY=${apiKey}\nPLATFORM_TOKEN_KEY=${tokenKey}\n`)

  await run(['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', state, '-c', 'wrangler.toml'], logFile)

  const port = await freePort()
  const inspectorPort = await freePort()
  const configs = ['-c', 'wrangler.toml', ...(sandbox ? ['-c', SANDBOX_CONFIG] : [])]
  const args = ['dev', ...configs, '--port', String(port), '--ip', '127.0.0.1', '--inspector-port', String(inspectorPort)]
  // The OAuth issuer and resources are the public origin, which is this port; access tokens
  // live 60 s (the library's minimum) so the MCP suite can see one expire and refresh it.
  args.push('--var', `PUBLIC_BASE_URL:http://localhost:${port}`, '--var', 'OAUTH_ACCESS_TOKEN_TTL:60')
  const child = wrangler([...args, '--persist-to', state, '--env-file', envFile, '--show-interactive-dev-session=false'], logFile)
  let output = ''
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()))

  const baseUrl = `http://localhost:${port}`
  try {
    await waitForHealth(baseUrl, child, () => output.slice(-4000))
  } catch (err) {
    await stop(child)
    throw err
  }
  project.provide('baseUrl', baseUrl)
  project.provide('sandbox', sandbox)
  project.provide('statePath', state)

  return async () => {
    await stop(child)
    if (process.env.E2E_KEEP_LOG) await writeFile(join(ROOT, 'e2e-wrangler.log'), output + (await readFile(logFile, 'utf8').catch(() => '')))
    await rm(dir, { recursive: true, force: true })
  }
}
