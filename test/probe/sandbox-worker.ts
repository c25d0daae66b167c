// The sandbox platform worker in a `wrangler dev` of its own, on a free loopback port with its
// own state and dev registry (so it never meets another run's workers), for the probe's tests.
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { type AddressInfo, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { firstAnswer, printed, watched } from '../helpers/process-output'
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
  const [port, inspector] = [await freePort(), await freePort()]
  const state = mkdtempSync(join(tmpdir(), 'probe-sandbox-'))
  const child: ChildProcess = spawn(
    process.execPath,
    [
      join(ROOT, 'node_modules/wrangler/bin/wrangler.js'),
      'dev',
      '-c',
      'sandbox/wrangler.toml',
      '--port',
      String(port),
      '--ip',
      '127.0.0.1',
      '--inspector-port',
      String(inspector),
      '--persist-to',
      join(state, 'state'),
      '--show-interactive-dev-session=false',
      '--var',
      `PLATFORM_API_KEY:${apiKey}`,
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
  const dev = watched(child)
  const stop = async () => {
    if (child.exitCode !== null || child.pid === undefined) return
    const exited = new Promise((ok) => child.once('exit', ok))
    process.kill(-child.pid, 'SIGTERM')
    const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 10_000)
    await exited
    clearTimeout(timer)
  }
  try {
    // wrangler says when it listens; the first answer then starts the worker.
    await printed(dev, /Ready on /, "the sandbox's wrangler dev", READY_TIMEOUT_MS)
    await firstAnswer(`http://127.0.0.1:${port}/__sandbox/venues`, READY_TIMEOUT_MS)
  } catch (err) {
    await stop()
    throw err
  }
  return { port, apiKey, stop }
}
