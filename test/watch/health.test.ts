import { env, SELF } from 'cloudflare:test'
import { expect, it, vi } from 'vitest'
import { sandboxControl } from '../../sandbox/control-client'
import { servicePlatform } from '../../src/runtime/platform-health'

const OPERATOR = { Authorization: `Bearer ${env.OPERATOR_TOKEN}` }
const health = async () => (await SELF.fetch('http://localhost/health', { headers: OPERATOR })).json()

it('answers health and has migrated D1', async () => {
  const res = await SELF.fetch('http://localhost/health')
  expect(res.status).toBe(200)
  const row = await env.DB.prepare('select count(*) as n from users').first<{ n: number }>()
  expect(row?.n).toBe(0)
})

it('counts platform blocks for operators, with a stable log line, and shows the figure on /health', async () => {
  expect(await health()).toEqual({
    ok: true,
    platform: { blocked: { count: 0, last_at: null, last: null }, operator_fault: { count: 0, last_at: null, last: null } },
    // The service-wide budget's figures.
    budget: expect.objectContaining({ callsPerSecond: 1000, shortfall: 0 }),
  })
  // Only this client (its own browser User-Agent) is blocked, so other files sharing the world are not.
  const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0'
  if (!env.PLATFORM) throw new Error('PLATFORM binding missing')
  const control = sandboxControl({ fetcher: env.PLATFORM, baseUrl: env.PLATFORM_BASE_URL })
  await control.block({ userAgent: firefox, forMs: 60_000, style: 'imperva' })
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
  try {
    const platform = servicePlatform({ ...env, PLATFORM_USER_AGENT: firefox })
    expect(await platform.searchVenues('juniper')).toEqual({ kind: 'blocked', signal: 'imperva' })
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
      'platform.blocked {"kind":"blocked","signal":"imperva","path":"/3/venuesearch/search"}',
    ])
  } finally {
    warn.mockRestore()
    await control.block({ userAgent: firefox, forMs: 0 })
  }
  expect(await health()).toMatchObject({
    platform: { blocked: { count: 1, last_at: expect.any(String), last: '/3/venuesearch/search imperva' }, operator_fault: { count: 0 } },
  })
})

it('answers liveness publicly and shows the operators’ figures only with the operator token', async () => {
  const open = await SELF.fetch('http://localhost/health')
  expect(open.status).toBe(200)
  const body = JSON.stringify(await open.json())
  expect(body).toBe('{"ok":true}')
  const wrong = await SELF.fetch('http://localhost/health', { headers: { Authorization: 'Bearer not-the-operator-token' } })
  expect(wrong.status).toBe(401)
  expect(await wrong.text()).not.toContain('platform')
  const operator = await SELF.fetch('http://localhost/health', { headers: OPERATOR })
  expect(await operator.json()).toMatchObject({ ok: true, platform: { blocked: { count: expect.any(Number) } } })
})
