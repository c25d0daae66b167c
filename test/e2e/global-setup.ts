// Starts what the end-to-end suites drive, as two `wrangler dev` processes:
//  - the sandbox platform (sandbox/wrangler.toml, when it exists) on a port of its own, so Node
//    can call its control API (/__sandbox/…) — e.g. drop a table while a request is watching;
//  - the service (wrangler.toml, with LOCAL_DEVELOPMENT=on as npm start passes it), with D1
//    migrated first, on the public origin http://localhost:<port>.
// The service keeps its PLATFORM service binding, resolved through wrangler's local dev registry.
// The registry lives in this run's temporary directory (WRANGLER_REGISTRY_PATH), so the binding
// can only find this run's sandbox, never another `wrangler dev` on the machine (the benchmark's
// sandbox has the same name). PLATFORM_BASE_URL is the sandbox's own origin: the sandbox keeps one
// world per host name, so the service's platform client and the tests' control client address the
// same world. Each process keeps its state in its own --persist-to directory; both are stopped
// (with their workerd children) afterwards.
import { type ChildProcess, spawn } from 'node:child_process'
import { generateKeyPairSync } from 'node:crypto'
import { existsSync, watch } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { TestProject } from 'vitest/node'
import { firstAnswer, printed, type WatchedProcess, watched } from '../helpers/process-output'
import { freePort } from './ports'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the running service, e.g. http://localhost:43123. */
    baseUrl: string
    /**
     * Origin of the sandbox platform's own `wrangler dev`, e.g. http://127.0.0.1:43124 (empty
     * without a sandbox). The service's PLATFORM_BASE_URL: use it as the control client's base
     * URL to act on the sandbox world the service books in.
     */
    sandboxUrl: string
    /** The --persist-to directory of the running service (for `wrangler d1 execute`). */
    statePath: string
    /** When this run began (ms): every screenshot in screenshots/ was taken after it. */
    runStartedAt: number
    /**
     * A certificate and key for https on 127.0.0.1 that the service trusts (NODE_EXTRA_CA_CERTS
     * of its `wrangler dev`): tests serve OAuth client metadata documents with them (PEM text).
     */
    loopbackTls: { cert: string; key: string }
  }
}

const ROOT = resolve(import.meta.dirname, '../..')
const WRANGLER = join(ROOT, 'node_modules/wrangler/bin/wrangler.js')
const SANDBOX_CONFIG = join(ROOT, 'sandbox/wrangler.toml')
const SANDBOX_NAME = 'tablewatch-sandbox'
/** The run's screenshots (browser.ts writes them; gitignored): emptied first, so the directory is this run's artifacts only. */
const SCREENSHOTS = join(ROOT, 'screenshots')
const READY_TIMEOUT_MS = 180_000
/**
 * The watcher's polling interval for this run: the service's minimum (cadence.ts), instead of
 * the default 60 s, so a table the sandbox drops is found within seconds of a test waiting.
 */
const POLL_INTERVAL_SECONDS = '15'

/** Runs wrangler with the Node that runs vitest (the project's Node 22, not the system's). */
function wrangler(args: string[], env: Record<string, string>): ChildProcess {
  // No network: no metrics, and no download of a sample `request.cf` (npm start turns it off too).
  const childEnv = {
    ...process.env,
    WRANGLER_SEND_METRICS: 'false',
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    CI: 'true',
    NO_COLOR: '1',
    ...env,
  }
  return spawn(process.execPath, [WRANGLER, ...args], { cwd: ROOT, env: childEnv, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
}

async function run(args: string[], env: Record<string, string>): Promise<void> {
  const child = wrangler(args, env)
  let output = ''
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()))
  const code = await new Promise<number | null>((ok) => child.on('exit', ok))
  if (code !== 0) throw new Error(`wrangler ${args.join(' ')} exited with ${code}:\n${output}`)
}

/** One `wrangler dev` of the run, with everything it printed. */
interface DevProcess extends WatchedProcess {
  label: string
}

async function startDev(label: string, args: string[], env: Record<string, string>): Promise<DevProcess> {
  const inspectorPort = await freePort()
  const child = wrangler(
    ['dev', ...args, '--ip', '127.0.0.1', '--inspector-port', String(inspectorPort), '--show-interactive-dev-session=false'],
    env,
  )
  return { label, ...watched(child) }
}

/** Once wrangler says it listens ("Ready on"), the first answer of `url` (which starts the worker). */
async function ready(dev: DevProcess, url: string): Promise<void> {
  await printed(dev, /Ready on /, `${dev.label} (wrangler dev)`, READY_TIMEOUT_MS)
  await firstAnswer(url, READY_TIMEOUT_MS)
}

/** How many times a `wrangler dev` is started again on new ports when one it was given is taken. */
const PORT_ATTEMPTS = 4

/**
 * Starts `wrangler dev` on a port nothing listened on a moment ago, and once it answers `path`,
 * says on which. A free port is only free until somebody binds it: `npm test` starts the e2e
 * projects' setups at the same moment in separate processes, and two of them can be handed the
 * same port. wrangler then exits with "Address already in use", and the start is tried again on
 * new ports (the inspector's too).
 */
async function startOnFreePort(
  label: string,
  argsFor: (port: number) => string[],
  origin: (port: number) => string,
  path: string,
  env: Record<string, string>,
): Promise<{ dev: DevProcess; port: number }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    const dev = await startDev(label, ['--port', String(port), ...argsFor(port)], env)
    try {
      await ready(dev, `${origin(port)}${path}`)
      return { dev, port }
    } catch (err) {
      await stop(dev)
      if (attempt === PORT_ATTEMPTS || !/Address already in use/i.test(dev.output())) throw err
    }
  }
}

/** Resolves once `dir/name` exists: the entry a running `wrangler dev` writes in the dev registry. */
async function entryIn(dir: string, name: string): Promise<void> {
  await mkdir(dir, { recursive: true })
  const path = join(dir, name)
  const watcher = watch(dir)
  try {
    await new Promise<void>((ok, fail) => {
      const timer = setTimeout(
        () => fail(new Error(`no ${name} in the dev registry within ${READY_TIMEOUT_MS / 1000} s`)),
        READY_TIMEOUT_MS,
      )
      const check = () => {
        if (!existsSync(path)) return
        clearTimeout(timer)
        ok()
      }
      watcher.on('change', check)
      check()
    })
  } finally {
    watcher.close()
  }
}

/**
 * A self-signed certificate for 127.0.0.1 and localhost, valid for a day: the service's workerd
 * trusts it (miniflare adds NODE_EXTRA_CA_CERTS to workerd's trusted certificates), so a test
 * can play a client's https site on loopback, as local development allows.
 */
async function loopbackCertificate(dir: string): Promise<{ certPath: string; cert: string; key: string }> {
  const certPath = join(dir, 'loopback-cert.pem')
  const keyPath = join(dir, 'loopback-key.pem')
  const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1']
  args.push('-keyout', keyPath, '-out', certPath, '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost')
  const child = spawn('openssl', args, { stdio: 'ignore' })
  const code = await new Promise<number | null>((ok) => child.on('exit', ok))
  if (code !== 0) throw new Error(`openssl req exited with ${code}`)
  return { certPath, cert: await readFile(certPath, 'utf8'), key: await readFile(keyPath, 'utf8') }
}

async function sandboxApiKey(): Promise<string> {
  const path = join(ROOT, 'sandbox/.dev.vars')
  const keyIn = (text: string) => /^\s*PLATFORM_API_KEY\s*=\s*["']?([^"'\s]+)/m.exec(text)?.[1]
  const key = crypto.randomUUID().replaceAll('-', '')
  // Created exclusively: the other e2e project, starting at the same moment, reads this one's key.
  const created = await writeFile(path, `PLATFORM_API_KEY=${key}\n`, { mode: 0o600, flag: 'wx' }).then(
    () => true,
    () => false,
  )
  if (created) return key
  const existing = await readFile(path, 'utf8')
  const found = keyIn(existing)
  if (found) return found
  await writeFile(path, `${existing}${existing.endsWith('\n') ? '' : '\n'}PLATFORM_API_KEY=${key}\n`, { mode: 0o600 })
  return key
}

async function stop(dev: DevProcess): Promise<void> {
  const { child } = dev
  if (child.exitCode !== null || child.pid === undefined) return
  const exited = new Promise((ok) => child.on('exit', ok))
  process.kill(-child.pid, 'SIGTERM') // the whole group: wrangler and its workerd
  const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 10_000)
  await exited
  clearTimeout(timer)
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // `npm test` (scripts/test.mjs) runs both e2e projects side by side: it empties screenshots/
  // once and says when the run began; a project run alone empties it itself.
  const runStartedAt = Number(process.env.TABLEWATCH_TEST_RUN_STARTED_AT) || Date.now()
  if (!process.env.TABLEWATCH_TEST_RUN_STARTED_AT) await rm(SCREENSHOTS, { recursive: true, force: true })
  await mkdir(SCREENSHOTS, { recursive: true })
  const dir = await mkdtemp(join(tmpdir(), 'tablewatch-e2e-'))
  const state = join(dir, 'state')
  const registry = join(dir, 'registry')
  const sandbox = existsSync(SANDBOX_CONFIG)
  // The service's secrets come from a temporary env file. The sandbox reads its own
  // sandbox/.dev.vars (gitignored; `npm start` writes it the same way), so the service gets the
  // API key found there, or a new one written there.
  const apiKey = sandbox ? await sandboxApiKey() : `e2e-${crypto.randomUUID()}`
  const tokenKey = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')
  const envFile = join(dir, '.dev.vars')
  const secret = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')
  // Web Push's VAPID key, a fresh P-256 JWK as npm start makes one; quoted for the env file.
  const vapid = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' })
  const secrets = {
    PLATFORM_API_KEY: apiKey,
    PLATFORM_TOKEN_KEY: tokenKey,
    PASSWORD_PEPPER: secret(),
    CSRF_SECRET: secret(),
    VAPID_PRIVATE_KEY: `'${JSON.stringify(vapid)}'`,
  }
  await writeFile(
    envFile,
    Object.entries(secrets)
      .map(([name, value]) => `${name}=${value}\n`)
      .join(''),
  )
  const env = (name: string) => ({ WRANGLER_REGISTRY_PATH: registry, WRANGLER_LOG_PATH: join(dir, `${name}.log`) })
  const tls = await loopbackCertificate(dir)

  // The service's D1 is migrated while the sandbox starts: the service starts once both are done.
  const migrated = run(['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', state, '-c', 'wrangler.toml'], env('migrate'))
  migrated.catch(() => {}) // awaited below; a failure is thrown there

  const started: DevProcess[] = []
  const stopAll = async () => {
    for (const dev of [...started].reverse()) await stop(dev) // the service first: it calls the sandbox
  }
  const serviceOrigin = (port: number) => `http://localhost:${port}`
  const sandboxOrigin = (port: number) => `http://127.0.0.1:${port}`
  let baseUrl = ''
  let sandboxUrl = ''
  try {
    if (sandbox) {
      // Demo mode off: no table appears or vanishes unless a test says so through the control API.
      const args = ['-c', SANDBOX_CONFIG, '--persist-to', join(dir, 'sandbox-state'), '--var', 'SANDBOX_DEMO:off']
      const { dev, port } = await startOnFreePort('sandbox', () => args, sandboxOrigin, '/__sandbox/venues', env('sandbox'))
      started.push(dev)
      sandboxUrl = sandboxOrigin(port)
      // Start the service only once the registry lists the sandbox, so its binding finds it.
      await entryIn(registry, SANDBOX_NAME)
    }

    await migrated
    const argsFor = (port: number) => {
      const args = ['-c', 'wrangler.toml', '--persist-to', state, '--env-file', envFile]
      // The OAuth issuer and resources are the public origin, which is this port; access tokens
      // live 60 s (the library's minimum) so the MCP suite can see one expire and refresh it.
      args.push('--var', `PUBLIC_BASE_URL:${serviceOrigin(port)}`, '--var', 'OAUTH_ACCESS_TOKEN_TTL:60')
      args.push('--var', `POLL_INTERVAL_SECONDS:${POLL_INTERVAL_SECONDS}`)
      // Local development's exceptions (plain-http webhooks to this machine, the sandbox's demo
      // control, the outbox page), passed as npm start passes them: wrangler.toml's top level leaves
      // them out, so that a deploy without --env never carries them.
      args.push('--var', 'LOCAL_DEVELOPMENT:on', '--var', 'SHOW_OUTBOX:on')
      if (sandbox) args.push('--var', `PLATFORM_BASE_URL:${sandboxUrl}`)
      return args
    }
    const serviceEnv = { ...env('service'), NODE_EXTRA_CA_CERTS: tls.certPath }
    const { dev, port } = await startOnFreePort('service', argsFor, serviceOrigin, '/health', serviceEnv)
    started.push(dev)
    baseUrl = serviceOrigin(port)
  } catch (err) {
    await stopAll()
    await rm(dir, { recursive: true, force: true })
    throw err
  }
  project.provide('baseUrl', baseUrl)
  project.provide('sandboxUrl', sandboxUrl)
  project.provide('statePath', state)
  project.provide('runStartedAt', runStartedAt)
  project.provide('loopbackTls', { cert: tls.cert, key: tls.key })

  return async () => {
    await stopAll()
    if (process.env.E2E_KEEP_LOG) {
      const logs = await Promise.all(
        started.map(
          async (dev) => `=== ${dev.label}\n${dev.output()}${await readFile(join(dir, `${dev.label}.log`), 'utf8').catch(() => '')}`,
        ),
      )
      await writeFile(join(ROOT, `${project.name}-wrangler.log`), logs.join('\n'))
    }
    await rm(dir, { recursive: true, force: true })
  }
}
