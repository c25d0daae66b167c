// Bearer authentication and scopes: who gets 401, who gets 403, and what each scope reveals.
import { env, SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { type ApiCall, api, expectError, newKey } from '../helpers/api'
import { createTokenForUser, createUserWithToken, randomBase62, scopesWithout, type TestScope } from '../helpers/auth'
import { createOk, getRequest, insertReservation, validSpec } from '../helpers/requests'
import { DAY_MS } from '../helpers/time'
import { seedVenues } from '../helpers/venues'

beforeAll(seedVenues)

function expectBearerChallenge(headers: Headers) {
  expect(headers.get('WWW-Authenticate') ?? '').toMatch(/^Bearer\b/)
}

describe('authentication', () => {
  const unauthorized: [string, () => Promise<Record<string, string>>][] = [
    ['no Authorization header', async () => ({})],
    ['a Basic credential', async () => ({ Authorization: 'Basic dXNlcjpwYXNz' })],
    ['a bearer value that is not an spt_ token', async () => ({ Authorization: 'Bearer not-a-token' })],
    ['an empty bearer value', async () => ({ Authorization: 'Bearer ' })],
    ['an spt_ token that was never issued', async () => ({ Authorization: `Bearer spt_${randomBase62(43)}` })],
    [
      'an expired token',
      async () => {
        const { token } = await createUserWithToken({ expiresAt: Date.now() - 1000 })
        return { Authorization: `Bearer ${token}` }
      },
    ],
  ]

  it.each(unauthorized)('answers 401 unauthorized with a Bearer challenge to %s', async (_name, headers) => {
    const res = await SELF.fetch('http://localhost/api/v1/requests', { headers: await headers() })
    expect(res.status).toBe(401)
    expectBearerChallenge(res.headers)
    expect(await res.json()).toMatchObject({ code: 'unauthorized', message: expect.any(String) })
  })

  it('answers 401 authorization_revoked to a revoked token', async () => {
    const { token } = await createUserWithToken({ revokedAt: Date.now() - 1000 })
    const res = await api('/capabilities', { token })
    expectError(res, 401, 'authorization_revoked')
    expectBearerChallenge(res.headers)
  })

  it('refuses a token the moment it is revoked, though it worked before', async () => {
    const { token, tokenId } = await createUserWithToken()
    expect((await api('/capabilities', { token })).status).toBe(200)
    await env.DB.prepare('update access_tokens set revoked_at = ? where id = ?').bind(Date.now(), tokenId).run()
    expectError(await api('/capabilities', { token }), 401, 'authorization_revoked')
  })

  it('refuses a token that differs from an issued one in its last character', async () => {
    const { token } = await createUserWithToken()
    const tampered = token.slice(0, -1) + (token.endsWith('a') ? 'b' : 'a')
    expectError(await api('/capabilities', { token: tampered }), 401, 'unauthorized')
  })

  it('records when a token was last used', async () => {
    const { token, tokenId } = await createUserWithToken()
    const before = Date.now()
    expect((await api('/capabilities', { token })).status).toBe(200)
    await vi.waitFor(
      async () => {
        const row = await env.DB.prepare('select last_used_at from access_tokens where id = ?')
          .bind(tokenId)
          .first<{ last_used_at: number | null }>()
        expect(row?.last_used_at).toBeGreaterThanOrEqual(before - 1000)
      },
      { timeout: 3000, interval: 50 },
    )
  })
})

interface ScopedRoute {
  route: string
  scope: TestScope
  /** Builds a call that would succeed if the token held the scope. */
  call: (token: string) => Promise<[string, ApiCall]>
}

// A request owned by a token that may write and read, used by the routes that need an id.
async function someRequestId(): Promise<string> {
  const { token } = await createUserWithToken()
  return (await createOk(token)).id as string
}

const ROUTES: ScopedRoute[] = [
  { route: 'GET /capabilities', scope: 'requests:read', call: async () => ['/capabilities', {}] },
  { route: 'GET /restaurants', scope: 'restaurants:read', call: async () => ['/restaurants?q=lilac', {}] },
  {
    route: 'POST /requests/preview',
    scope: 'requests:read',
    call: async () => ['/requests/preview', { method: 'POST', body: validSpec() }],
  },
  {
    route: 'POST /requests',
    scope: 'requests:write',
    call: async () => ['/requests', { method: 'POST', body: validSpec(), idempotencyKey: newKey() }],
  },
  { route: 'GET /requests', scope: 'requests:read', call: async () => ['/requests', {}] },
  { route: 'GET /requests/{id}', scope: 'requests:read', call: async () => [`/requests/${await someRequestId()}`, {}] },
  {
    route: 'PUT /requests/{id}',
    scope: 'requests:write',
    call: async () => [
      `/requests/${await someRequestId()}`,
      { method: 'PUT', body: { revision: 1, spec: validSpec() }, idempotencyKey: newKey() },
    ],
  },
  {
    route: 'POST /requests/{id}/stop',
    scope: 'requests:write',
    call: async () => [`/requests/${await someRequestId()}/stop`, { method: 'POST' }],
  },
  { route: 'GET /reservations/{id}', scope: 'reservations:read', call: async () => ['/reservations/1', {}] },
]

describe('scopes', () => {
  it.each(ROUTES)('refuses $route with 403 insufficient_scope to a token without $scope', async ({ scope, call }) => {
    const { token } = await createUserWithToken({ scopes: scopesWithout(scope) })
    const [path, options] = await call(token)
    const res = await api(path, { ...options, token })
    expectError(res, 403, 'insufficient_scope')
    const challenge = res.headers.get('WWW-Authenticate') ?? ''
    expect(challenge).toMatch(/^Bearer\b/)
    expect(challenge).toContain('error="insufficient_scope"')
    expect(challenge).toContain(`scope="${scope}"`)
  })

  it('refuses to read a request to the token that created it when it lacks requests:read', async () => {
    const { token } = await createUserWithToken({ scopes: ['requests:write'] })
    const created = await createOk(token)
    expect(created.status).toBe('active')
    expectError(await getRequest(token, created.id as string), 403, 'insufficient_scope')
  })

  it('checks the token before the body: no token and a broken spec still answer 401', async () => {
    const res = await api('/requests', { method: 'POST', body: { party_size: 99 } })
    expectError(res, 401, 'unauthorized')
  })

  it('checks the scope before the body: a broken spec without requests:write answers 403', async () => {
    const { token } = await createUserWithToken({ scopes: ['requests:read'] })
    expectError(await api('/requests', { method: 'POST', token, body: { party_size: 99 } }), 403, 'insufficient_scope')
  })

  it('creates nothing for a token without requests:write', async () => {
    const { token, userId } = await createUserWithToken({ scopes: ['requests:read'] })
    expectError(await api('/requests', { method: 'POST', token, body: validSpec(), idempotencyKey: newKey() }), 403, 'insufficient_scope')
    const row = await env.DB.prepare('select count(*) as n from requests where user_id = ?').bind(userId).first<{ n: number }>()
    expect(row?.n).toBe(0)
  })

  it('shows reservations[] only to a token holding reservations:read', async () => {
    const { userId, token: withReservations } = await createUserWithToken()
    const { token: withoutReservations } = await createTokenForUser(userId, ['requests:read', 'requests:write'])

    const seen = await createOk(withReservations)
    const reservationId = await insertReservation(seen.id as string)
    const hidden = await createOk(withoutReservations, validSpec({ title: 'hidden' }))
    await insertReservation(hidden.id as string)

    const visible = await getRequest(withReservations, seen.id as string)
    expect(visible.body.reservations).toEqual([expect.objectContaining({ reservation_id: reservationId, verified: true })])
    const blank = await getRequest(withoutReservations, hidden.id as string)
    expect(blank.status).toBe(200)
    expect(blank.body.reservations).toEqual([])
    const listed = await api('/requests', { token: withoutReservations })
    expect(listed.body.requests.map((r: { reservations: unknown[] }) => r.reservations)).toEqual([[]])
  })

  it('grants a token exactly its scopes even when the user has other tokens', async () => {
    const { userId } = await createUserWithToken({ expiresAt: Date.now() + DAY_MS * 80 })
    const { token: searchOnly } = await createTokenForUser(userId, ['restaurants:read'])
    expect((await api('/restaurants?q=lilac', { token: searchOnly })).status).toBe(200)
    expectError(await api('/capabilities', { token: searchOnly }), 403, 'insufficient_scope')
  })
})
