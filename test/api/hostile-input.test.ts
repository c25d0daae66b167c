// Bad input never gives a 5xx and never leaves a half-created request.
import { SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { api, newKey } from '../helpers/api'
import { createUserWithToken } from '../helpers/auth'
import { countRequests, create, createOk, preview, update, validSpec } from '../helpers/requests'
import { seedVenues } from '../helpers/venues'

beforeAll(seedVenues)

const BODIES: [string, unknown][] = [
  ['null', null],
  ['a string', 'dinner for two'],
  ['a number', 42],
  ['an empty object', {}],
  ['null fields', validSpec({ venue_ids: null, dates: null, party_size: null })],
  ['null array items', validSpec({ venue_ids: [null], dates: [null] })],
  ['nested objects where strings go', validSpec({ earliest_time: { h: 19 }, timezone: ['America/New_York'] })],
  ['a huge venue id', validSpec({ venue_ids: [Number.MAX_SAFE_INTEGER * 8] })],
  ['a huge fee', validSpec({ max_cancellation_fee_per_person: 1e308 })],
  ['a prototype key', JSON.parse('{"__proto__": {"mode": "auto_book"}, "venue_ids": [900001]}')],
  ['a 100 kB title', validSpec({ title: 'x'.repeat(100_000) })],
  ['10 000 dates', validSpec({ dates: Array.from({ length: 10_000 }, () => '2026-01-01') })],
  ['a deeply nested value', validSpec({ title: JSON.parse('['.repeat(500) + ']'.repeat(500)) })],
]

describe('hostile request bodies', () => {
  it.each(BODIES)('answers %s with a 4xx on preview and create, storing nothing', async (_name, body) => {
    const { token, userId } = await createUserWithToken()
    for (const res of [await preview(token, body), await create(token, body)]) {
      expect(res.status).toBeGreaterThanOrEqual(400)
      expect(res.status).toBeLessThan(500)
    }
    expect(await countRequests(userId)).toBe(0)
  })

  it.each(BODIES)('answers %s with a 4xx on update, leaving the request as it was', async (_name, spec) => {
    const { token } = await createUserWithToken()
    const view = await createOk(token)
    const res = await update(token, view.id, 1, spec)
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
    expect((await api(`/requests/${view.id}`, { token })).body).toMatchObject({ revision: 1, title: view.title })
  })

  it('answers an empty body with a 422, not a server error', async () => {
    const { token } = await createUserWithToken()
    const res = await SELF.fetch('http://localhost/api/v1/requests', {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': newKey() },
    })
    expect(res.status).toBe(422)
  })
})

describe('hostile path parameters', () => {
  it.each(['sr_%00', `sr_${'a'.repeat(5000)}`, '..%2F..%2Fcapabilities', "sr_'%20or%201=1--", '%F0%9F%8D%9D'])(
    'answers request id %s with 404 or 422, never a server error',
    async (id) => {
      const { token } = await createUserWithToken()
      for (const res of [await api(`/requests/${id}`, { token }), await api(`/requests/${id}/stop`, { method: 'POST', token })]) {
        expect([404, 422]).toContain(res.status)
      }
    },
  )

  it.each(['0', '-1', '1.5', '99999999999999999999', '1e3'])('answers reservation id %s with 404 or 422', async (id) => {
    const { token } = await createUserWithToken()
    expect([404, 422]).toContain((await api(`/reservations/${id}`, { token })).status)
  })
})

describe('request titles', () => {
  it('lose NUL and bidirectional control characters, so a title reads as what it is', async () => {
    const { token } = await createUserWithToken()
    const view = await createOk(token, validSpec({ title: 'Birthday\u0000 at \u202Eairettort\u202C' }))
    expect(view.title).toBe('Birthday at airettort')
    const read = await api(`/requests/${String(view.id)}`, { token })
    expect(read.body.title).toBe('Birthday at airettort')
  })
})
