// The benchmark's world: a temporary state directory, the sandbox platform and the service
// under `wrangler dev` on loopback, the catalog filled from the platform, and the users. A
// second service instance can be started beside the first: it reaches the sandbox by another
// host name (`localhost`), which the sandbox serves as a separate world with its own counters.

import { randomBytes } from 'node:crypto'
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import { type SandboxControl, type SandboxVenueView, sandboxControl } from '../../sandbox/control-client'
import { createPlatformClient } from '../../src/platform/client'
import { DEFAULT_USER_AGENT } from '../../src/platform/user-agent'
import { Api } from './api'
import { LocalD1 } from './d1'
import { DevServer, startOnFreePort } from './processes'
import { setting } from './settings'
import { mapLimit } from './stats'
import { Traces } from './trace'
import { type BenchUser, insertBulkUsers } from './users'

export interface ServiceInstance {
  service: DevServer
  /** The sandbox world this instance uses (same host name as its PLATFORM_BASE_URL). */
  control: SandboxControl
  /** That world's platform API (what a paired device calls), and the API key both sides share. */
  platformBase: string
  apiKey: string
  d1: LocalD1
  api: Api
  traces: Traces
  bulk: BenchUser[]
}

export interface World extends ServiceInstance {
  dir: string
  sandbox: DevServer
  venues: SandboxVenueView[]
  /** Venues with no release rule on the platform: every day of the horizon is on sale. */
  openVenues: SandboxVenueView[]
  /**
   * Open venues the service can book at: no reCAPTCHA, no Tock inventory, no card asked for a
   * free table (those only alert). A phase that counts bookings picks its venues here.
   */
  bookableVenues: SandboxVenueView[]
  /** Another service instance on its own state, using the sandbox world `host`; `vars` are passed to it (--var). */
  startInstance(name: string, host: string, bulkUsers: number, vars?: Record<string, string>): Promise<ServiceInstance>
  close(): Promise<void>
}

type Log = (line: string) => void

export async function startWorld(options: { bulkUsers: number; log: Log }): Promise<World> {
  const dir = mkdtempSync(join(tmpdir(), 'tablewatch-bench-'))
  // Local-only secrets for this run: the API key both workers share, the token key, the
  // password pepper, the CSRF signing key and the operator token (/health's figures).
  const apiKey = `bench-${randomBytes(12).toString('hex')}`
  const tokenKey = randomBytes(32).toString('base64')
  const vars = join(dir, '.dev.vars')
  const operatorToken = randomBytes(24).toString('hex')
  const keys = [
    `PASSWORD_PEPPER=${randomBytes(32).toString('base64')}`,
    `CSRF_SECRET=${randomBytes(32).toString('base64')}`,
    `OPERATOR_TOKEN=${operatorToken}`,
  ]
  writeFileSync(vars, `PLATFORM_API_KEY=${apiKey}\nPLATFORM_TOKEN_KEY=${tokenKey}\n${keys.join('\n')}\n`, { mode: 0o600 })

  // Only this run's sandbox knows this run's API key.
  const sandboxIsOurs = async (origin: string) =>
    (
      await fetch(`${origin}/2/config?venue_id=60101`, {
        headers: { Authorization: `ResyAPI api_key="${apiKey}"`, 'User-Agent': DEFAULT_USER_AGENT },
        signal: AbortSignal.timeout(5_000),
      })
    ).status === 200
  options.log('starting the sandbox platform (wrangler dev)')
  const sandbox = await startOnFreePort((port) => {
    const server = new DevServer(
      'sandbox',
      ['-c', 'sandbox/wrangler.toml', '--persist-to', join(dir, 'sandbox'), '--env-file', vars, '--var', 'SANDBOX_DEMO:off'],
      port,
      sandboxIsOurs,
    )
    // BENCH_SERVICE_LOG=<file>: the sandbox's lines too (each platform call with its time there).
    const sandboxLog = setting('BENCH_SERVICE_LOG')
    if (sandboxLog) server.onLine((line) => appendFileSync(`${sandboxLog}.sandbox`, `${Date.now()} ${line}\n`))
    return server
  })
  const sandboxPort = sandbox.port
  const venues = await sandboxControl({ fetcher: globalThis, baseUrl: sandbox.origin }).venues()
  const instances: ServiceInstance[] = []

  async function startInstance(
    name: string,
    host: string,
    bulkUsers: number,
    extraVars: Record<string, string> = {},
  ): Promise<ServiceInstance> {
    const platformBase = `http://${host}:${sandboxPort}`
    const state = join(dir, name)
    const d1 = new LocalD1(state)
    d1.migrate()
    options.log(`${name}: writing ${bulkUsers} users (token, connected platform account) into its local D1`)
    const platform = createPlatformClient({ fetcher: globalThis, baseUrl: platformBase, apiKey, timeoutMs: 8_000 })
    const bulk = await insertBulkUsers(d1, join(dir, `${name}-users.sql`), bulkUsers, platform, tokenKey)
    const traces = new Traces()
    // Only this run's service shows its budget to this run's operator token.
    const serviceIsOurs = async (origin: string) => {
      const res = await fetch(`${origin}/health`, {
        headers: { Authorization: `Bearer ${operatorToken}` },
        signal: AbortSignal.timeout(5_000),
      })
      return res.ok && 'budget' in ((await res.json()) as object)
    }
    options.log(`${name}: starting the service (wrangler dev, [env.bench], platform at ${platformBase})`)
    const service = await startOnFreePort((port) => {
      const args = [
        '-c',
        'wrangler.toml',
        '--env',
        'bench',
        '--persist-to',
        state,
        '--env-file',
        vars,
        '--var',
        `PLATFORM_BASE_URL:${platformBase}`,
        '--var',
        `PUBLIC_BASE_URL:http://127.0.0.1:${port}`,
        ...Object.entries(extraVars).flatMap(([key, value]) => ['--var', `${key}:${value}`]),
      ]
      const server = new DevServer('service', args, port, serviceIsOurs)
      server.onLine((line) => traces.service(line))
      // BENCH_SERVICE_LOG=<file>: every line the service prints, for looking into a surprising figure.
      const logFile = setting('BENCH_SERVICE_LOG')
      if (logFile) server.onLine((line) => appendFileSync(`${logFile}.${name}`, `${Date.now()} ${line}\n`))
      return server
    })
    const api = new Api(service.origin, operatorToken)
    const searcher = bulk[0]
    if (!searcher) throw new Error('no users')
    // Restaurant search adds each platform venue (zone, release rule) to the service's catalog.
    // A search fans out to a lookup per new venue, all within the service's call budget (docs/decisions/budget.md):
    // a lookup that waits too long is left out of that answer, so search again for what is missing.
    const known = () => new Set(d1.query('SELECT venue_id FROM venues', z.object({ venue_id: z.number() })).map((r) => r.venue_id))
    for (let round = 0, missing = venues; missing.length > 0; round++) {
      if (round === 6) throw new Error(`${name}: ${missing.length} venues never reached the catalog (the service's call budget?)`)
      await mapLimit(missing, round === 0 ? 4 : 1, (v) =>
        api.call(searcher.token, 'GET', `/api/v1/restaurants?q=${encodeURIComponent(v.name)}`),
      )
      const inCatalog = known()
      missing = missing.filter((v) => !inCatalog.has(v.id))
    }
    const control = sandboxControl({ fetcher: globalThis, baseUrl: platformBase })
    const instance = { service, control, platformBase, apiKey, d1, api, traces, bulk }
    instances.push(instance)
    return instance
  }

  const close = async () => {
    for (const instance of instances) await instance.service.stop()
    await sandbox.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  // A world that fails to start stops what it started (a sandbox left running outlives the run).
  const main = await startInstance('service', '127.0.0.1', options.bulkUsers).catch(async (err: unknown) => {
    await close()
    throw err
  })
  return {
    ...main,
    dir,
    sandbox,
    venues,
    openVenues: venues.filter((v) => v.release === null),
    bookableVenues: venues.filter((v) => v.release === null && v.bookingRule === null),
    startInstance,
    close,
  }
}
