import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { createAccessToken } from '../../src/auth/pat'
import type { Scope } from '../../src/core/scopes'
import { dbOf } from '../../src/db/client'
import { users, venues } from '../../src/db/schema'
import { addDays, todayIn } from '../../src/lib/zoned-time'
import { approveRequest } from '../../src/request-use-cases/approve'

const ALL: Scope[] = ['restaurants:read', 'requests:read', 'requests:write', 'reservations:read']

async function tokenFor(email: string, scopes: Scope[] = ALL) {
  const db = dbOf(env.DB)
  const userId = `usr_${email}`
  await db.insert(users).values({ id: userId, email, createdAt: Date.now() }).onConflictDoNothing()
  const { token } = await createAccessToken(db, { userId, name: 'test', scopes })
  return { userId, token }
}

async function seedVenue(venueId: number, timeZone = 'America/New_York') {
  await dbOf(env.DB)
    .insert(venues)
    .values({ venueId, name: `Venue ${venueId}`, city: 'New York', neighborhood: 'SoHo', timeZone, addedAt: Date.now() })
    .onConflictDoNothing()
}

function spec(overrides: Record<string, unknown> = {}) {
  const date = addDays(todayIn('America/New_York', Date.now()), 5)
  return {
    venue_ids: [7001],
    dates: [date],
    earliest_time: '18:00',
    latest_time: '21:00',
    expires_at: `${date}T17:00:00-05:00`,
    ...overrides,
  }
}

function call(token: string, method: string, path: string, body?: unknown, key?: string) {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` }
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  if (key) headers['Idempotency-Key'] = key
  return SELF.fetch(`http://localhost/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
}

describe('request flow', () => {
  it('walks preview, create, get, update, approve and stop for an auto_book request', async () => {
    await seedVenue(7001)
    const { token, userId } = await tokenFor('flow@example.com')

    const preview = await call(token, 'POST', '/requests/preview', spec({ mode: 'auto_book' }))
    expect(preview.status).toBe(200)
    const previewed = await preview.json<{ restaurants: { name: string }[]; executor: { reason: string } }>()
    expect(previewed.restaurants[0]?.name).toBe('Venue 7001')
    expect(previewed.executor.reason).toBe('resy_not_connected')

    const created = await call(token, 'POST', '/requests', spec({ mode: 'auto_book' }), 'key-create-1')
    expect(created.status).toBe(201)
    const view = await created.json<{ id: string; status: string; revision: number; action_url: string }>()
    expect(view.status).toBe('needs_approval')
    expect(view.action_url).toBe(`http://localhost:8787/requests/${view.id}/approve?revision=1`)

    const replay = await call(token, 'POST', '/requests', spec({ mode: 'auto_book' }), 'key-create-1')
    expect(replay.status).toBe(201)
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true')
    expect((await replay.json<{ id: string }>()).id).toBe(view.id)

    const updated = await call(
      token,
      'PUT',
      `/requests/${view.id}`,
      { revision: 1, spec: spec({ mode: 'auto_book', party_size: 4 }) },
      'key-update-1',
    )
    expect(updated.status).toBe(200)
    const v2 = await updated.json<{ revision: number; status: string; action_url: string }>()
    expect(v2).toMatchObject({ revision: 2, status: 'needs_approval' })
    expect(v2.action_url).toMatch(/revision=2$/)

    await expect(approveRequest({ env }, { requestId: view.id, revision: 1, userId })).rejects.toMatchObject({ code: 'revision_conflict' })
    const approved = await approveRequest({ env }, { requestId: view.id, revision: 2, userId })
    expect(approved.status).toBe('active')

    const stopped = await call(token, 'POST', `/requests/${view.id}/stop`)
    expect(stopped.status).toBe(200)
    expect((await stopped.json<{ status: string }>()).status).toBe('stopped')

    const list = await call(token, 'GET', '/requests')
    const listed = await list.json<{ requests: { id: string; status: string }[] }>()
    expect(listed.requests.map((r) => [r.id, r.status])).toEqual([[view.id, 'stopped']])
  })

  it('answers schema failures with the contract detail body', async () => {
    const { token } = await tokenFor('bad@example.com')
    const res = await call(token, 'POST', '/requests/preview', spec({ party_size: 21, extra: 1 }))
    expect(res.status).toBe(422)
    const body = await res.json<{ detail: { loc: unknown[]; type: string }[] }>()
    expect(body.detail).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ loc: ['body', 'party_size'], type: 'less_than_equal' }),
        expect.objectContaining({ loc: ['body', 'extra'], type: 'extra_forbidden' }),
      ]),
    )
  })

  it('serves the OpenAPI document with every route', async () => {
    const res = await SELF.fetch('http://localhost/api/v1/openapi.json')
    const doc = await res.json<{ openapi: string; info: { version: string }; paths: Record<string, unknown> }>()
    expect(doc.info.version).toBe('1.0.0')
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/api/v1/capabilities',
      '/api/v1/requests',
      '/api/v1/requests/preview',
      '/api/v1/requests/{request_id}',
      '/api/v1/requests/{request_id}/stop',
      '/api/v1/reservations/{reservation_id}',
      '/api/v1/restaurants',
    ])
  })
})
