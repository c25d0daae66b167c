// The probe against a local server that answers as the real platform does behind its CDN (resy-api.md, "Corrections (third review)"):
// it sends the service's own headers (so Imperva lets it through), records every answer with its
// CDN headers and cookies (values redacted), reports where the answers differ from the client's
// schemas, reads every page of the reservations, and stops at the first block.
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_USER_AGENT } from '../../src/platform/user-agent'
import {
  ACCOUNT,
  EMPTY_DAY,
  type PlatformLikeServer,
  SERVER_API_KEY,
  startPlatformLikeServer,
  UPCOMING_TOTAL,
  VENUES,
} from './platform-like-server'
import { allText, ROOT, runProbeCommand } from './run'

let server: PlatformLikeServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

const withAccount = { env: { PROBE_EMAIL: ACCOUNT.email, PROBE_PASSWORD: ACCOUNT.password } }
const argsFor = (url: string, ...more: string[]) => ['--base-url', url, '--api-key', SERVER_API_KEY, '--day', EMPTY_DAY, ...more]

describe('the probe against a platform behind Imperva (resy-api.md, "Corrections (third review)")', () => {
  it('sends the browser User-Agent, Accept, Origin and Referer the client sends, so no call is refused', async () => {
    server = await startPlatformLikeServer()
    const run = await runProbeCommand(argsFor(server.url, '--query', 'pasta', '--account'), withAccount)
    expect(run.code).toBe(0)
    expect(server.received.length).toBeGreaterThan(10)
    for (const r of server.received) {
      expect(r.headers['user-agent']).toBe(DEFAULT_USER_AGENT)
      expect(r.headers.accept).toBe('application/json, text/plain, */*')
      expect(r.headers.origin).toBe('https://resy.com')
      expect(r.headers.referer).toBe('https://resy.com/')
    }
    const calls = run.summary().calls
    const reads = calls.filter((c) => !c.file.includes('sign-in-check'))
    expect(reads.every((c) => c.status === 200)).toBe(true)
    // The sign-in checks, without credentials: a preflight's 204, an empty post's refusal in JSON.
    expect(calls.filter((c) => c.file.includes('sign-in-check')).map((c) => c.status)).toEqual([204, 204, 204, 400, 419])
    // The same server refuses a client without a browser User-Agent, as Imperva does (resy-api.md, "Corrections (third review)").
    const plain = await fetch(`${server.url}/3/geoip`, { headers: { Authorization: `ResyAPI api_key="${SERVER_API_KEY}"` } })
    expect([plain.status, await plain.text()]).toEqual([500, 'Internal Server Error'])
  })

  it('records each answer with its status, the CDN headers and cookies (values redacted) and the body', async () => {
    server = await startPlatformLikeServer()
    const run = await runProbeCommand(argsFor(server.url, '--venue', String(VENUES[0]?.id), '--account'), withAccount)
    const names = [...run.files.keys()]
    expect(names).toEqual([
      '01-geoip.json',
      '02-venue-1505.json',
      '03-config-1505.json',
      '04-calendar-1505.json',
      '05-find-1505.json',
      '06-search.json',
      '07-sign-in-check-preflight-4-auth-mobile.json',
      '08-sign-in-check-preflight-4-auth-password.json',
      '09-sign-in-check-preflight-3-auth-refresh.json',
      '10-sign-in-check-empty-4-auth-mobile.json',
      '11-sign-in-check-empty-4-auth-password.json',
      '12-login.json',
      '13-user.json',
      '14-reservations-upcoming-1.json',
      '15-reservations-upcoming-2.json',
      '16-reservations-past-1.json',
      'summary.json',
    ])
    const find = run.json('05-find-1505.json')
    expect(find.request).toMatchObject({ method: 'GET', path: '/4/find', query: { venue_id: '1505', day: EMPTY_DAY, party_size: '2' } })
    expect(find.response.status).toBe(200)
    expect(find.response.json).toEqual({ query: { day: EMPTY_DAY, party_size: 2 }, results: { venues: [] } })
    const headers = find.response.headers
    expect(headers).toContainEqual(['x-cdn', 'Imperva'])
    expect(headers.find(([n]) => n === 'x-iinfo')?.[1]).toMatch(/^9-12345678/)
    const cookies = headers.filter(([n]) => n === 'set-cookie').map(([, v]) => v)
    expect(cookies.map((c) => c.split(';')[0])).toEqual([
      'visid_incap_2100000=[redacted]',
      'incap_ses_1234_2100000=[redacted]',
      'nlbi_2100000=[redacted]',
    ])
    // The search went by the first venue's name (no --query given).
    expect(run.json('06-search.json').request.body).toEqual({ query: 'Lilia', per_page: 8, types: ['venue'] })
    // The request headers we sent are recorded too, the API key redacted.
    expect(find.request.headers).toContainEqual(['authorization', 'ResyAPI api_key="[redacted]"'])
  })

  it('reads every page of the reservations with limit and offset', async () => {
    server = await startPlatformLikeServer()
    const run = await runProbeCommand(argsFor(server.url, '--venue', '1505', '--account'), withAccount)
    const pages = server.received.filter((r) => r.path === '/3/user/reservations' && r.query.get('type') === 'upcoming')
    expect(pages.map((p) => [p.query.get('limit'), p.query.get('offset')])).toEqual([
      ['20', '0'],
      ['20', '20'],
    ])
    const listed = [run.json('14-reservations-upcoming-1.json'), run.json('15-reservations-upcoming-2.json')].flatMap(
      (r) => (r.response.json as { reservations: unknown[] }).reservations,
    )
    expect(listed).toHaveLength(UPCOMING_TOTAL)
  })

  it("prints and saves where the answers differ from the client's schemas (the legacy reservation's object time_slot)", async () => {
    server = await startPlatformLikeServer()
    const run = await runProbeCommand(argsFor(server.url, '--venue', '1505', '--account'), withAccount)
    const schema = run.summary().differences.filter((d) => d.against === 'schema')
    expect(schema).toContainEqual(
      expect.objectContaining({
        call: '14-reservations-upcoming-1',
        path: 'reservations[3].time_slot',
        detail: expect.stringContaining('reservationEntry'),
      }),
    )
    expect(run.output).toMatch(/schema\s+reservations\[3\]\.time_slot: reservationEntry/)
    // The geoip answer has no schema in the client: nothing to differ from. The calendar has one.
    expect(run.json('01-geoip.json').probe.schema).toBeNull()
    expect(run.json('04-calendar-1505.json').probe.schema).toBe('calendarAnswer')
    expect(run.json('05-find-1505.json').probe.schema).toBe('findAnswer')
    expect(run.output).toMatch(/recorded \(redacted\) in .*review every file before committing it/)
  })

  it('keeps no token, email, password, name, phone number, card id, last four digits or cookie value in any file', async () => {
    server = await startPlatformLikeServer()
    const run = await runProbeCommand(argsFor(server.url, '--venue', '1505', '--account'), withAccount)
    expect(run.files.size).toBe(17)
    const text = allText(run)
    const secrets = [
      ACCOUNT.token,
      ACCOUNT.refreshToken,
      encodeURIComponent(ACCOUNT.refreshToken),
      ACCOUNT.email,
      ACCOUNT.password,
      ACCOUNT.firstName,
      ACCOUNT.lastName,
      ACCOUNT.phone,
      '555-0187',
      String(ACCOUNT.userId),
      String(ACCOUNT.cardId),
      ACCOUNT.cardLast4,
      ACCOUNT.resyToken,
      SERVER_API_KEY,
      'Qm9yZWFsLXZpc2l0b3ItaWQ',
      'c2Vzc2lvbi12YWx1ZQ',
    ]
    for (const secret of secrets) expect(text, secret).not.toContain(secret)
    // Nor in what it printed.
    for (const secret of secrets) expect(run.output, secret).not.toContain(secret)
    // The shapes stay: a redacted card is still an object with a number id.
    const user = run.json('13-user.json').response.json as { payment_methods: { id: unknown; display: unknown }[] }
    expect(user.payment_methods[0]).toMatchObject({ id: 0, display: '[redacted]' })
    expect(run.json('12-login.json').request.body).toEqual({ email: '[redacted]', password: '[redacted]' })
  })

  it('runs as `npm run platform:probe` does, at about one call a second', async () => {
    server = await startPlatformLikeServer()
    const out = join(mkdtempSync(join(tmpdir(), 'probe-cmd-')), 'recorded')
    const args = [...argsFor(server.url, '--venue', '1505'), '--out', out]
    const started = Date.now()
    const child = spawn(process.execPath, [join(ROOT, 'scripts/platform-probe/run.mjs'), ...args], {
      cwd: ROOT,
      env: { ...process.env, CI: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()))
    const code = await new Promise<number | null>((done) => child.on('exit', done))
    expect(code, stdout).toBe(0)
    // Six reads and the five sign-in checks, at least a second apart: ten intervals.
    expect(server.received).toHaveLength(11)
    expect(Date.now() - started).toBeGreaterThanOrEqual(10_000)
    expect(readdirSync(out)).toHaveLength(12)
    expect(stdout).toMatch(/11 calls; differences: /)
    expect(stdout).toMatch(/OPTIONS \/4\/auth\/mobile: operator answers \(HTTP 204\)/)
  })

  it('stops at the first block (the plain-text 500) instead of pressing on, and says so', async () => {
    server = await startPlatformLikeServer({ blockEveryone: true })
    const run = await runProbeCommand(argsFor(server.url, '--venue', '1505', '--account'), withAccount)
    expect(run.code).toBe(1)
    expect(server.received).toHaveLength(1)
    const geoip = run.json('01-geoip.json')
    expect(geoip.response).toMatchObject({ status: 500, text: 'Internal Server Error' })
    expect(run.summary().stoppedBecause).toMatch(/plain-text 500/)
    expect(run.output).toMatch(/stopped early: 01-geoip: Imperva's plain-text 500/)
  })

  it('refuses credentials on the command line and runs without touching the network', async () => {
    let called = 0
    const network = async () => {
      called++
      return new Response('{}')
    }
    const run = await runProbeCommand(['--api-key', 'k', '--venue', '1', '--account', '--password', 'hunter2'], { network })
    expect(run.code).toBe(2)
    expect(run.output).toMatch(/--password is not accepted on the command line/)
    expect(run.output).not.toContain('hunter2')
    expect(called).toBe(0)
  })

  it('asks for the account before the first call, and without one (no env, no terminal) makes no call', async () => {
    server = await startPlatformLikeServer()
    const run = await runProbeCommand(argsFor(server.url, '--venue', '1505', '--account'))
    expect(run.code).toBe(2)
    expect(run.output).toMatch(/--account needs the email and password/)
    expect(server.received).toHaveLength(0)
  })

  it('asks before it calls the real platform, and sends nothing unless told yes (or --yes)', async () => {
    const calls: string[] = []
    const network = async (request: Request) => {
      calls.push(new URL(request.url).pathname)
      return new Response('Internal Server Error', { status: 500 })
    }
    const real = ['--base-url', 'https://api.resy.com', '--api-key', 'k', '--venue', '1']
    const noTerminal = await runProbeCommand(real, { network })
    expect(noTerminal.code).toBe(2)
    expect(noTerminal.output).toMatch(/confirm with --yes/)
    const questions: string[] = []
    const declined = await runProbeCommand(real, {
      network,
      answer: (q) => {
        questions.push(q)
        return 'n'
      },
    })
    expect(declined.code).toBe(1)
    expect(questions).toEqual([expect.stringMatching(/calls the real platform at https:\/\/api\.resy\.com .*Go on\?/)])
    expect(calls).toEqual([])
    expect((await runProbeCommand(real, { network, answer: () => 'yes' })).code).toBe(1) // stopped at the block
    expect((await runProbeCommand([...real, '--yes'], { network })).code).toBe(1)
    expect(calls).toEqual(['/3/geoip', '/3/geoip'])
  })

  it('refuses to reach the real platform from CI', async () => {
    let called = 0
    const network = async () => {
      called++
      return new Response('{}')
    }
    const run = await runProbeCommand(['--api-key', 'k', '--venue', '1'], { network, env: { CI: 'true' } })
    expect(run.code).toBe(2)
    expect(run.output).toMatch(/refusing to run in CI/)
    expect(called).toBe(0)
  })
})
