// The bad-input sweep over every endpoint: the OAuth endpoints (registration,
// authorization signed in and out, token, revocation, the well-known documents) with every
// parameter repeated, odd Authorization headers, odd content types and methods; the pages, the
// forms, the REST and JSON APIs and MCP with repeated parameters and odd Authorization headers.
// Nothing answers 5xx, the service never fetches a URL a client named at a private address, the
// victim's grant and request live on, and nothing leaks. The counts by endpoint and status are
// printed.
import { env } from 'cloudflare:test'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fetchAddressProblem } from '../../src/auth/client-id-document'
import { validSpec } from '../helpers/requests'
import { mcpPost, PROTOCOL_VERSION, rpc } from '../mcp/mcp-client'
import { type Connection, ORIGIN, REDIRECT_URI, refresh, register } from '../oauth/oauth-client'
import { WebClient } from '../web/web-client'
import { mapBounded, send } from './support/http'
import { expectNoLeaks, keepSecret, watchConsole } from './support/leaks'
import {
  authorizeParams,
  authorizeProbes,
  ODD_AUTHORIZATIONS,
  registrationProbes,
  type SweepProbe,
  tokenProbes,
  wellKnownProbes,
} from './support/sweep-probes'
import { connectedVictim } from './support/victim'

const CONCURRENCY = 4
/** Hundreds of calls on two shared cores: generous. */
const SWEEP_TIMEOUT_MS = 240_000

let victim: Connection
let victimRequestId: string
let web: WebClient
let pat: string
let fetched: string[]

beforeEach(async () => {
  watchConsole()
  ;({ victim, requestId: victimRequestId } = await connectedVictim())
  web = new WebClient(ORIGIN)
  await web.newUser(keepSecret('sweep user password'))
  pat = keepSecret(await web.createToken())
  // Outbound fetches to any https site are noted (and answered 404, there is no network here).
  fetched = []
  const passThrough = globalThis.fetch
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    if (!url.startsWith('https://')) return passThrough(input, init)
    fetched.push(url)
    return new Response('not here', { status: 404 })
  })
})

afterEach(() => {
  vi.restoreAllMocks()
})

const cookieOf = (client: WebClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')

/** The other endpoints: each usual request, with each parameter repeated and odd Authorization headers. */
async function otherProbes(): Promise<SweepProbe[]> {
  const csrf = await web.csrfFrom('/settings')
  const session = { Cookie: cookieOf(web) }
  const form = { ...session, 'Content-Type': 'application/x-www-form-urlencoded' }
  const api = { Authorization: `Bearer ${pat}` }
  const json = { ...api, 'Content-Type': 'application/json' }
  const rpcBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
  const endpoints: { method: string; path: string; params: [string, string][]; headers: Record<string, string>; json?: string }[] = [
    { method: 'GET', path: '/', params: [['welcome', '1']], headers: session },
    { method: 'GET', path: '/signin', params: [['next', '/settings']], headers: {} },
    { method: 'GET', path: '/signup', params: [['next', '/settings']], headers: {} },
    {
      method: 'GET',
      path: '/signup/confirm',
      params: [
        ['t', 'x'],
        ['next', '/'],
      ],
      headers: {},
    },
    { method: 'GET', path: '/password-reset/set', params: [['t', 'x']], headers: {} },
    { method: 'GET', path: '/settings', params: [['done', 'push_on']], headers: session },
    { method: 'GET', path: '/assistants', params: [['disconnected', '1']], headers: session },
    { method: 'GET', path: '/notifications', params: [['page', '2']], headers: session },
    { method: 'GET', path: '/requests', params: [['status', 'active']], headers: session },
    { method: 'GET', path: '/calendar', params: [['since', '0']], headers: session },
    { method: 'GET', path: '/developers/skill.md', params: [['v', '1']], headers: {} },
    {
      method: 'GET',
      path: '/unsubscribe',
      params: [
        ['u', 'usr_x'],
        ['t', 'x'],
      ],
      headers: {},
    },
    { method: 'GET', path: '/health', params: [['x', '1']], headers: {} },
    {
      method: 'POST',
      path: '/signin',
      params: [
        ['email', 'a@example.com'],
        ['password', 'wrong password'],
        ['_csrf', csrf],
      ],
      headers: form,
    },
    {
      method: 'POST',
      path: '/signup',
      params: [
        ['email', 'b@example.com'],
        ['password', 'a long password'],
        ['_csrf', csrf],
      ],
      headers: form,
    },
    {
      method: 'POST',
      path: '/password-reset',
      params: [
        ['email', 'c@example.com'],
        ['_csrf', csrf],
      ],
      headers: form,
    },
    {
      method: 'POST',
      path: '/password-reset/set',
      params: [
        ['t', 'x'],
        ['password', 'a long password'],
        ['_csrf', csrf],
      ],
      headers: form,
    },
    {
      method: 'POST',
      path: '/signup/confirm',
      params: [
        ['t', 'x'],
        ['_csrf', csrf],
      ],
      headers: form,
    },
    {
      method: 'POST',
      path: '/settings/password',
      params: [
        ['current_password', 'not it at all'],
        ['new_password', 'a long new password'],
        ['_csrf', csrf],
      ],
      headers: form,
    },
    {
      method: 'POST',
      path: '/assistants/tokens',
      params: [
        ['name', 'Sweep'],
        ['scopes', 'requests:read'],
        ['_csrf', csrf],
      ],
      headers: form,
    },
    {
      method: 'POST',
      path: '/unsubscribe',
      params: [
        ['u', 'usr_x'],
        ['t', 'x'],
      ],
      headers: form,
    },
    { method: 'GET', path: '/api/v1/capabilities', params: [['x', '1']], headers: api },
    {
      method: 'GET',
      path: '/api/v1/restaurants',
      params: [
        ['q', 'marrow'],
        ['limit', '5'],
      ],
      headers: api,
    },
    {
      method: 'GET',
      path: '/api/v1/requests',
      params: [
        ['limit', '5'],
        ['cursor', 'x'],
      ],
      headers: api,
    },
    { method: 'POST', path: '/api/v1/requests/preview', params: [['dry', '1']], headers: json, json: JSON.stringify(validSpec()) },
    { method: 'GET', path: '/account/platform', params: [['x', '1']], headers: session },
    {
      method: 'POST',
      path: '/account/platform/connect',
      params: [['x', '1']],
      headers: { ...session, 'Content-Type': 'application/json', 'x-csrf-token': csrf },
      json: '{"email":"diner@example.com"}',
    },
    {
      method: 'POST',
      path: '/device/v1/pair',
      params: [['code', 'x']],
      headers: { 'Content-Type': 'application/json' },
      json: '{"code":"x"}',
    },
    { method: 'GET', path: '/device/v1/connect', params: [['x', '1']], headers: {} },
    { method: 'POST', path: '/settings/webhook-secret', params: [['_csrf', csrf]], headers: form },
    {
      method: 'POST',
      path: '/settings/notifications',
      params: [
        ['only', 'webhook'],
        ['webhook_url', 'https://ntfy.sh/…'],
        ['webhook_format', 'ntfy'],
        ['_csrf', csrf],
      ],
      headers: form,
    },
    {
      method: 'POST',
      path: '/settings/push/subscriptions',
      params: [['x', '1']],
      headers: { ...session, 'Content-Type': 'application/json', 'x-csrf-token': csrf },
      json: '{"endpoint":"https://fcm.googleapis.com/fcm/send/sweep","keys":{"p256dh":"x","auth":"y"}}',
    },
    {
      method: 'POST',
      path: '/push/renewals',
      params: [['x', '1']],
      headers: { 'Content-Type': 'application/json' },
      json: '{"old":{"endpoint":"https://fcm.googleapis.com/fcm/send/a","keys":{"p256dh":"x","auth":"y"}},"new":{"endpoint":"https://fcm.googleapis.com/fcm/send/b","keys":{"p256dh":"x","auth":"y"}}}',
    },
    {
      method: 'POST',
      path: '/account/platform/code',
      params: [['x', '1']],
      headers: { ...session, 'Content-Type': 'application/json', 'x-csrf-token': csrf },
      json: '{"mobile_number":"+16465550199"}',
    },
    {
      method: 'POST',
      path: '/mcp',
      params: [['x', '1']],
      headers: { ...json, Host: 'localhost:8787', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': PROTOCOL_VERSION },
      json: rpcBody,
    },
  ]
  const probes: SweepProbe[] = [...mcpVersionProbes(json, rpcBody)]
  for (const e of endpoints) {
    const family = `${e.method} ${e.path}`
    const inBody = e.method === 'POST' && e.json === undefined
    const call = (query: string, headers: Record<string, string>) => ({
      origin: ORIGIN,
      method: e.method,
      path: inBody || !query ? e.path : `${e.path}?${query}`,
      headers,
      ...(inBody ? { body: query } : e.json !== undefined ? { body: e.json } : {}),
    })
    const plain = new URLSearchParams(e.params).toString()
    for (const [key, value] of e.params) {
      const others = e.params.filter(([k]) => k !== key)
      for (const [label, pairs] of [
        ['twice, the first empty', [[key, ''], [key, value], ...others]],
        ['twice, two values', [[key, value], [key, `${value}x`], ...others]],
      ] as [string, [string, string][]][]) {
        probes.push({ family, label: `${key} ${label}`, call: call(new URLSearchParams(pairs).toString(), e.headers) })
      }
    }
    for (const [label, authorization] of ODD_AUTHORIZATIONS) {
      probes.push({ family, label, call: call(plain, { ...e.headers, Authorization: authorization }) })
    }
  }
  return probes
}

/** MCP with odd MCP-Protocol-Version values: refused naming the served versions, never a 5xx. */
function mcpVersionProbes(json: Record<string, string>, rpcBody: string): SweepProbe[] {
  const versions = [
    '',
    ' ',
    '2027-01-01',
    '2026-99-99',
    '1999-01-01',
    '<script>alert(1)</script>',
    'x'.repeat(4000),
    '2025-06-18, 2025-11-25',
    '"2025-11-25"',
    '%00',
  ]
  return versions.map((version) => ({
    family: 'POST /mcp (MCP-Protocol-Version)',
    label: version.slice(0, 40),
    call: {
      origin: ORIGIN,
      method: 'POST',
      path: '/mcp',
      headers: { ...json, Host: 'localhost:8787', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': version },
      body: rpcBody,
    },
  }))
}

/** Sends every probe; returns the counts by family and status, and the 5xx answers. */
async function sweep(probes: SweepProbe[]): Promise<{ counts: Map<string, Map<number, number>>; failures: string[] }> {
  const answers = await mapBounded(probes, CONCURRENCY, (probe) => send({ ...probe.call, redirect: 'manual' }))
  const counts = new Map<string, Map<number, number>>()
  const failures: string[] = []
  probes.forEach((probe, i) => {
    const status = answers[i]?.status ?? 0
    const family = counts.get(probe.family) ?? new Map<number, number>()
    family.set(status, (family.get(status) ?? 0) + 1)
    counts.set(probe.family, family)
    if (status >= 500 || status === 0) failures.push(`${probe.family}, ${probe.label}: ${status}`)
  })
  return { counts, failures }
}

function report(title: string, counts: Map<string, Map<number, number>>): string {
  const total = new Map<number, number>()
  const lines = [...counts].map(([family, statuses]) => {
    for (const [status, n] of statuses) total.set(status, (total.get(status) ?? 0) + n)
    return `  ${family}: ${[...statuses]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}×${n}`)
      .join(' ')}`
  })
  const all = [...total].sort(([a], [b]) => a - b)
  return [`${title}: ${all.reduce((sum, [, n]) => sum + n, 0)} inputs, ${all.map(([s, n]) => `${s}×${n}`).join(' ')}`, ...lines].join('\n')
}

/** What the sweep must leave as it was: the victim's grant and request, and no fetch of a private URL. */
async function expectNothingHarmed(): Promise<void> {
  expect((await mcpPost(rpc('tools/list'), { token: victim.accessToken })).status).toBe(200)
  expect((await refresh(victim.client, victim.refreshToken)).status).toBe(200)
  const row = await env.DB.prepare('select status from requests where id = ?').bind(victimRequestId).first<{ status: string }>()
  expect(row?.status).toBe('active')
  expect(fetched.filter((url) => fetchAddressProblem({ LOCAL_DEVELOPMENT: 'off' }, url) !== null)).toEqual([])
  expectNoLeaks()
}

describe('the bad-input sweep over every endpoint', () => {
  it(
    'the OAuth endpoints: repeated parameters, odd Authorization headers, content types and methods; never a 5xx',
    async () => {
      const attacker = await register()
      const csrf = await web.csrfFrom('/settings')
      const probes = [
        ...tokenProbes(ORIGIN, attacker.client_id, REDIRECT_URI, victim.refreshToken),
        ...registrationProbes(ORIGIN, REDIRECT_URI),
        ...authorizeProbes(ORIGIN, authorizeParams('no-such-client', REDIRECT_URI), null, 'no-token'),
        ...authorizeProbes(ORIGIN, authorizeParams(attacker.client_id, REDIRECT_URI), null, 'no-token'),
        ...authorizeProbes(ORIGIN, authorizeParams('no-such-client', REDIRECT_URI), cookieOf(web), csrf),
        ...authorizeProbes(ORIGIN, authorizeParams(attacker.client_id, REDIRECT_URI), cookieOf(web), csrf),
        ...wellKnownProbes(ORIGIN),
      ]
      const { counts, failures } = await sweep(probes)
      console.info(report('OAuth sweep', counts))
      expect(probes.length).toBeGreaterThanOrEqual(500)
      expect(failures).toEqual([])
      await expectNothingHarmed()
    },
    SWEEP_TIMEOUT_MS,
  )

  it(
    'the pages, forms, REST and JSON APIs and MCP: repeated parameters and odd Authorization headers; never a 5xx',
    async () => {
      const probes = await otherProbes()
      const { counts, failures } = await sweep(probes)
      console.info(report('Other endpoints sweep', counts))
      expect(probes.length).toBeGreaterThanOrEqual(300)
      expect(failures).toEqual([])
      await expectNothingHarmed()
    },
    SWEEP_TIMEOUT_MS,
  )
})
