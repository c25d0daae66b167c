// The probe from two places: the operator's machine and Cloudflare's network (the relay worker,
// scripts/platform-probe/relay.ts, here under a local `wrangler dev`, whose fetches carry
// `CF-Worker` as on Cloudflare), against the sandbox platform in its datacenter mode: sign-in is
// refused to a Worker and answered to the operator, reads answer both, and the probe says so
// (docs/platform.md, "Where calls may come from").
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetcherFrom } from '../../device/src/http-fetch'
import { sandboxControl } from '../../sandbox/control-client'
import { createPlatformClient } from '../../src/platform/client'
import { type ProbeRun, ROOT, runProbeCommand } from './run'
import { type SandboxWorker, startSandboxWorker, startWranglerDev } from './sandbox-worker'

const TOKEN = randomBytes(24).toString('hex')
const VENUE = 60105

let sandbox: SandboxWorker
let relay: { port: number; stop: () => Promise<void> }
let run: ProbeRun

beforeAll(async () => {
  sandbox = await startSandboxWorker()
  const base = `http://127.0.0.1:${sandbox.port}`
  relay = await startWranglerDev(
    'scripts/platform-probe/relay.wrangler.toml',
    { PROBE_RELAY_TOKEN: TOKEN, PROBE_BASE_URL: base },
    '/relay',
    'relay',
  )
  // The operator calls from 127.0.0.1 without CF-Worker: "home" here. The relay's fetches carry CF-Worker.
  await sandboxControl({ fetcher: globalThis, baseUrl: base }).setSignInSettings({
    datacenter: { refuse: ['sign_in', 'refresh'], homeAddresses: ['127.0.0.1'] },
  })
  run = await runProbeCommand(
    [
      '--base-url',
      base,
      '--api-key',
      sandbox.apiKey,
      '--venue',
      String(VENUE),
      '--from',
      'both',
      '--relay',
      `http://127.0.0.1:${relay.port}`,
    ],
    { env: { PROBE_RELAY_TOKEN: TOKEN } },
  )
}, 480_000)

afterAll(async () => {
  await relay?.stop()
  await sandbox?.stop()
})

describe('the probe from the operator’s machine and from Cloudflare’s network', () => {
  it('finds sign-in answered from the operator and refused from the Worker, without credentials', () => {
    expect(run.code, run.output).toBe(0)
    const checks = (JSON.parse(run.files.get('summary.json') ?? '{}') as { signIn: { call: string; from: Record<string, string> }[] })
      .signIn
    expect(checks.map((c) => c.call)).toEqual([
      'OPTIONS /4/auth/mobile',
      'OPTIONS /4/auth/password',
      'OPTIONS /3/auth/refresh',
      'POST /4/auth/mobile',
      'POST /4/auth/password',
    ])
    for (const check of checks) {
      expect(check.from.operator, check.call).toMatch(/^answers \(HTTP (204|400|419)\)/)
      expect(check.from.cloudflare, check.call).toBe("refused: Imperva's plain-text 500 (Internal Server Error)")
    }
    expect(run.output).toMatch(/POST \/4\/auth\/mobile: operator answers \(HTTP 400\) · cloudflare refused/)
  })

  it('reads from both places alike, each recorded, and names every sign-in difference between them', () => {
    const summary = run.summary()
    const reads = summary.calls.filter((c) => !c.file.includes('sign-in-check'))
    expect(reads.filter((c) => c.file.endsWith('-from-cloudflare.json')).map((c) => c.call)).toEqual([
      'GET /3/geoip',
      'GET /3/venue',
      'GET /2/config',
      'GET /4/venue/calendar',
      'GET /4/find',
      'POST /3/venuesearch/search',
    ])
    // The same answer from both places (the sandbox has no /3/geoip: a 404 from both).
    const at = (c: { file: string; status: number }) => c.file.replace('-from-cloudflare', '')
    const operator = new Map(reads.filter((c) => !c.file.includes('-from-')).map((c) => [at(c), c.status]))
    for (const c of reads.filter((r) => r.file.includes('-from-cloudflare'))) expect(c.status, c.file).toBe(operator.get(at(c)))
    expect(reads.find((c) => c.call === 'GET /4/find')?.status).toBe(200)
    const places = summary.differences.filter((d) => d.against === 'place')
    expect(places).toHaveLength(5)
    expect(places.every((d) => /sign-in-check/.test(d.call))).toBe(true)
    // The Worker's recording carries no relay token.
    expect([...run.files.values()].join('\n')).not.toContain(TOKEN)
  })
})

describe('the relay worker', () => {
  const relayUrl = () => `http://127.0.0.1:${relay.port}/relay`
  const ask = (body: unknown, token = TOKEN) =>
    fetch(relayUrl(), {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
  const base = () => `http://127.0.0.1:${sandbox.port}`

  it('relays nothing without its token, nor a booking, nor a code texted, nor to another host', async () => {
    const find = { method: 'GET', url: `${base()}/3/geoip`, headers: [], body: null }
    expect((await ask(find, 'wrong-token-wrong-token-wrong-token')).status).toBe(401)
    expect((await ask({ ...find, url: `${base()}/3/book`, method: 'POST', body: 'book_token=x' })).status).toBe(403)
    expect((await ask({ ...find, url: `${base()}/4/auth/mobile`, method: 'POST', body: 'mobile_number=%2B12125550123' })).status).toBe(403)
    expect((await ask({ ...find, url: 'https://example.com/3/geoip' })).status).toBe(403)
    expect((await ask(find)).status).toBe(200)
  })

  it('builds as a Worker on its own, and names no booking path', async () => {
    const bundled = await build({
      entryPoints: [join(ROOT, 'scripts/platform-probe/relay.ts')],
      bundle: true,
      platform: 'neutral',
      format: 'esm',
      write: false,
      logLevel: 'error',
    })
    const code = bundled.outputFiles[0]?.text ?? ''
    for (const path of ['/3/details', '/3/book', '/3/cancel']) expect(code, path).not.toContain(path)
  })
})

describe('a paired device calling from a second local address (tablewatch-device --local-address)', () => {
  it('is the home network to the sandbox in datacenter mode, where a call from 127.0.0.1 is the datacenter', async () => {
    const base = `http://127.0.0.1:${sandbox.port}`
    await sandboxControl({ fetcher: globalThis, baseUrl: base }).setSignInSettings({
      datacenter: { refuse: ['sign_in', 'refresh'], homeAddresses: ['127.0.0.2'] },
    })
    const client = (localAddress?: string) =>
      createPlatformClient({ fetcher: fetcherFrom(localAddress), baseUrl: base, apiKey: sandbox.apiKey, timeoutMs: 10_000 })
    expect(await client().login('ada@example.com', 'pw')).toEqual({ kind: 'blocked', signal: 'plain_500' })
    const home = await client('127.0.0.2').login('ada@example.com', 'pw')
    expect(home).toMatchObject({ kind: 'ok', value: { refreshVia: 'cookie' } })
    if (home.kind === 'ok') expect(Object.keys(home.value.cdnCookies)).toHaveLength(3)
  })
})
