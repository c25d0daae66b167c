// Dynamic client registration at the scale of hosted assistants (docs/decisions/auth.md, "Dynamic
// registration"): identical registrations of a public client from one address share one client;
// a confidential client is never handed another's secret; new metadata from one address is
// limited (a flood of distinct junk), with RFC 7591's error object, 429 and a Retry-After of
// minutes at most. An IPv6 /64 counts as one address. Before, every registration made a client
// and the 31st in an hour from an address was refused for the rest of the hour.
import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { dbOf } from '../../src/db/client'
import { takeSmoothUnit } from '../../src/db/rate-limits'
import { ORIGIN } from './oauth-client'

interface Registered {
  status: number
  retryAfter: string | null
  body: Record<string, unknown>
}

async function registerFrom(address: string, metadata: Record<string, unknown> = {}): Promise<Registered> {
  const res = await SELF.fetch(`${ORIGIN}/oauth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': address },
    body: JSON.stringify({
      client_name: 'Hosted Assistant',
      redirect_uris: ['https://assistant.example/oauth/callback'],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...metadata,
    }),
  })
  return { status: res.status, retryAfter: res.headers.get('Retry-After'), body: (await res.json()) as Record<string, unknown> }
}

describe('identical registrations from one address', () => {
  it('gives 200 parallel registrations of a public client one client, which works', async () => {
    const answers = await Promise.all(Array.from({ length: 200 }, () => registerFrom('203.0.113.10')))
    expect(answers.map((a) => a.status)).toEqual(Array(200).fill(201))
    const ids = new Set(answers.map((a) => a.body.client_id))
    expect(ids.size).toBe(1)
    const [clientId] = [...ids]
    expect(answers.every((a) => a.body.client_secret === undefined)).toBe(true)
    expect(answers[0]?.body).toMatchObject({ client_name: 'Hosted Assistant', token_endpoint_auth_method: 'none' })
    // The same client the library stored, usable at the authorization endpoint.
    const authorize = await SELF.fetch(
      `${ORIGIN}/oauth/authorize?response_type=code&client_id=${clientId}&redirect_uri=${encodeURIComponent('https://assistant.example/oauth/callback')}&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256&state=s`,
      { redirect: 'manual' },
    )
    expect(authorize.status).toBe(303)
    expect(authorize.headers.get('location')).toContain('/signin?next=')
    // One more later, in sequence, is still that client.
    expect((await registerFrom('203.0.113.10')).body.client_id).toBe(clientId)
  }, 120_000)

  it('keeps the metadata apart: another name, redirect, method or address is another client', async () => {
    const first = await registerFrom('203.0.113.11')
    const others = [
      await registerFrom('203.0.113.11', { client_name: 'Other Assistant' }),
      await registerFrom('203.0.113.11', { redirect_uris: ['https://assistant.example/other'] }),
      await registerFrom('203.0.113.12'),
    ]
    for (const other of others) expect(other.body.client_id).not.toBe(first.body.client_id)
  })

  it('gives every identical confidential registration its own client and secret, never one already handed out', async () => {
    const confidential = { token_endpoint_auth_method: 'client_secret_post' }
    const answers = await Promise.all(Array.from({ length: 5 }, () => registerFrom('203.0.113.13', confidential)))
    expect(answers.map((a) => a.status)).toEqual(Array(5).fill(201))
    expect(new Set(answers.map((a) => a.body.client_id)).size).toBe(5)
    const secrets = answers.map((a) => a.body.client_secret)
    expect(secrets.every((s) => typeof s === 'string' && s.length >= 32)).toBe(true)
    expect(new Set(secrets).size).toBe(5)
  })
})

describe('limits', () => {
  it('refuses a flood of distinct clients from one address (an IPv6 /64 is one) with RFC 7591’s error and a Retry-After', async () => {
    const flood = await Promise.all(
      Array.from({ length: 40 }, (_, i) => registerFrom(`2001:db8:5:5::${(i + 1).toString(16)}`, { client_name: `Junk ${i}` })),
    )
    const refused = flood.filter((a) => a.status === 429)
    expect(flood.filter((a) => a.status === 201)).toHaveLength(30)
    expect(refused).toHaveLength(10)
    for (const answer of refused) {
      expect(Object.keys(answer.body).sort()).toEqual(['error', 'error_description'])
      expect(answer.body.error).toBe('invalid_client_metadata')
      expect(String(answer.body.error_description)).toMatch(/Try again in \d+ seconds/)
      const seconds = Number(answer.retryAfter)
      expect(seconds).toBeGreaterThan(0)
      expect(seconds).toBeLessThanOrEqual(120)
    }
    // Metadata registered before is no new junk: its public client is still answered.
    const known = flood.find((a) => a.status === 201 && a.body.client_name === 'Junk 0')
    if (known) expect((await registerFrom('2001:db8:5:5:ffff::1', { client_name: 'Junk 0' })).body.client_id).toBe(known.body.client_id)
    // Another address has its own budget.
    expect((await registerFrom('198.51.100.30', { client_name: 'Junk 99' })).status).toBe(201)
  }, 60_000)

  it('lets a shared backend register a confidential client per user after its budget for new metadata is spent', async () => {
    const address = '203.0.113.20'
    const app = { client_name: 'Hosted App', token_endpoint_auth_method: 'client_secret_post' }
    expect((await registerFrom(address, app)).status).toBe(201)
    for (let i = 1; i < 30; i++) expect((await registerFrom(address, { client_name: `App ${i}` })).status).toBe(201)
    expect((await registerFrom(address, { client_name: 'App 30' })).status).toBe(429)
    const users = await Promise.all(Array.from({ length: 40 }, () => registerFrom(address, app)))
    expect(users.map((a) => a.status)).toEqual(Array(40).fill(201))
    expect(new Set(users.map((a) => a.body.client_id)).size).toBe(40)
  }, 60_000)
})

describe('the ceiling for new clients', () => {
  it('refuses new clients past 1,000 from one address, even of one known app', async () => {
    const address = '203.0.113.30'
    const app = { client_name: 'Busy App', token_endpoint_auth_method: 'client_secret_post' }
    const statuses: number[] = []
    const started = Date.now()
    for (let batch = 0; batch < 24; batch++) {
      const answers = await Promise.all(Array.from({ length: 50 }, () => registerFrom(address, app)))
      statuses.push(...answers.map((a) => a.status))
    }
    // The budget refills one client every 3.6 s while the test runs (a slow machine takes a minute).
    const refilled = Math.floor((Date.now() - started) / 3_600) + 1
    const accepted = statuses.filter((s) => s === 201).length
    expect(accepted).toBeGreaterThanOrEqual(1_000)
    expect(accepted).toBeLessThanOrEqual(1_000 + refilled)
    expect(statuses.filter((s) => s === 429).length).toBe(1_200 - accepted)
    const refused = await registerFrom(address, app)
    expect(refused.body.error).toBe('invalid_client_metadata')
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(4)
  }, 180_000)
})

describe('the smooth budget behind the limits', () => {
  it('gives the whole budget at once, then one unit per interval, and says when the next one frees up', async () => {
    const db = dbOf(env.DB)
    const budget = { key: `test:smooth:${crypto.randomUUID()}`, limit: 30, windowMs: 3_600_000 }
    const t0 = 1_800_000_000_000
    const burst = await Promise.all(Array.from({ length: 35 }, () => takeSmoothUnit(db, budget, t0)))
    expect(burst.filter((r) => r.ok)).toHaveLength(30)
    expect(burst.filter((r) => !r.ok).map((r) => (r.ok ? 0 : r.retryAt))).toEqual(Array(5).fill(t0 + 120_000))
    expect((await takeSmoothUnit(db, budget, t0 + 119_999)).ok).toBe(false)
    expect((await takeSmoothUnit(db, budget, t0 + 120_000)).ok).toBe(true)
    expect((await takeSmoothUnit(db, budget, t0 + 120_000)).ok).toBe(false)
    const later = t0 + 3_600_000 * 2
    const refill = await Promise.all(Array.from({ length: 31 }, () => takeSmoothUnit(db, budget, later)))
    expect(refill.filter((r) => r.ok)).toHaveLength(30)
  })
})
