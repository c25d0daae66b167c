// The sandbox platform worker (and the probe's relay) in a `wrangler dev` of its own, on a free
// loopback port with its own state and dev registry (so it never meets another run's workers),
// for the probe's tests.
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { type AddressInfo, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT } from './run'

const READY_TIMEOUT_MS = 180_000

export interface SandboxWorker {
  port: number
  apiKey: string
  stop: () => Promise<void>
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((ok) => server.close(() => ok()))
  return port
}

export async function startSandboxWorker(): Promise<SandboxWorker> {
  // A key of this run's own, given on the command line: sandbox/.dev.vars is neither read nor written.
  const apiKey = randomBytes(16).toString('hex')
  const dev = await startWranglerDev('sandbox/wrangler.toml', { PLATFORM_API_KEY: apiKey }, '/__sandbox/venues', 'sandbox')
  return { ...dev, apiKey }
}

/**
 * A worker of the repository in a `wrangler dev` of its own on a free loopback port, with its own
 * state and dev registry; ready once `readyPath` answers (any status for a POST-only worker).
 */
export async function startWranglerDev(
  config: string,
  vars: Record<string, string>,
  readyPath: string,
  label: string,
): Promise<{ port: number; stop: () => Promise<void> }> {
  const [port, inspector] = [await freePort(), await freePort()]
  const state = mkdtempSync(join(tmpdir(), 'probe-sandbox-'))
  const child: ChildProcess = spawn(
    process.execPath,
    [
      join(ROOT, 'node_modules/wrangler/bin/wrangler.js'),
      'dev',
      '-c',
      config,
      '--port',
      String(port),
      '--ip',
      '127.0.0.1',
      '--inspector-port',
      String(inspector),
      '--persist-to',
      join(state, 'state'),
      '--show-interactive-dev-session=false',
      ...Object.entries(vars).flatMap(([name, value]) => ['--var', `${name}:${value}`]),
    ],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        WRANGLER_SEND_METRICS: 'false',
        CLOUDFLARE_CF_FETCH_ENABLED: 'false',
        CI: 'true',
        NO_COLOR: '1',
        WRANGLER_REGISTRY_PATH: join(state, 'registry'),
      },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let output = ''
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()))
  const stop = async () => {
    if (child.exitCode !== null || child.pid === undefined) return
    const exited = new Promise((ok) => child.once('exit', ok))
    process.kill(-child.pid, 'SIGTERM')
    const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 10_000)
    await exited
    clearTimeout(timer)
  }
  const deadline = Date.now() + READY_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the ${label}'s wrangler dev exited early:\n${output.slice(-4000)}`)
    try {
      const res = await fetch(`http://127.0.0.1:${port}${readyPath}`, { signal: AbortSignal.timeout(2_000) })
      if (res.status < 500) return { port, stop }
    } catch {
      // not listening yet
    }
    await new Promise((ok) => setTimeout(ok, 500))
  }
  await stop()
  throw new Error(`the ${label} was not ready within ${READY_TIMEOUT_MS / 1000} s:\n${output.slice(-4000)}`)
}
