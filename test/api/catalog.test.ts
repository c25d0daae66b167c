// Restaurant search over the service's catalog, and the capabilities report.
import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { api } from '../helpers/api'
import { createUserWithToken } from '../helpers/auth'
import { seedVenues, VENUES } from '../helpers/venues'

beforeAll(seedVenues)

const search = async (q: string) => {
  const { token } = await createUserWithToken()
  return api(`/restaurants?q=${encodeURIComponent(q)}`, { token })
}

describe('restaurant search', () => {
  it('finds a venue by name with the fields needed for a request', async () => {
    const res = await search('Prairie Smoke')
    expect(res.status).toBe(200)
    expect(res.body.restaurants).toEqual([expect.objectContaining(VENUES.chicago)])
  })

  it('ignores the case of the query', async () => {
    const res = await search('canyon TAQUERIA')
    expect(res.body.restaurants.map((r: { venue_id: number }) => r.venue_id)).toEqual([VENUES.losAngeles.venue_id])
  })

  it('returns at most 8 results', async () => {
    const insert = env.DB.prepare(
      'insert or ignore into venues (venue_id, name, city, neighborhood, time_zone, added_at) values (?, ?, ?, ?, ?, ?)',
    )
    await env.DB.batch(
      Array.from({ length: 12 }, (_, i) =>
        insert.bind(900300 + i, `Zucchini House ${i}`, 'New York', 'Nolita', 'America/New_York', Date.now()),
      ),
    )
    const res = await search('Zucchini House')
    expect(res.status).toBe(200)
    expect(res.body.restaurants).toHaveLength(8)
    for (const r of res.body.restaurants) expect(r.name).toMatch(/^Zucchini House/)
  })

  it('answers an empty list when nothing matches', async () => {
    const res = await search('no such restaurant qqq')
    expect(res.status).toBe(200)
    expect(res.body.restaurants).toEqual([])
  })

  it.each([
    ['1 character', 'L'],
    ['201 characters', 'L'.repeat(201)],
  ])('refuses a query of %s with a 422 on q', async (_name, q) => {
    const res = await search(q)
    expect(res.status).toBe(422)
    expect(res.body.detail[0].loc).toEqual(['query', 'q'])
  })

  it('refuses a missing q with a 422 on q', async () => {
    const { token } = await createUserWithToken()
    const res = await api('/restaurants', { token })
    expect(res.status).toBe(422)
    expect(res.body.detail[0].loc).toEqual(['query', 'q'])
  })

  it.each([
    ['2 characters', 'Li'],
    ['48 characters', 'L'.repeat(48)],
    // D1 refuses LIKE patterns over 50 bytes once a row is compared: these must still work.
    ['49 characters', 'L'.repeat(49)],
    ['200 characters', 'L'.repeat(200)],
    ['60 multi-byte characters', 'Café '.repeat(12)],
  ])('accepts a query of %s', async (_name, q) => {
    const res = await search(q)
    expect(res.status).toBe(200)
    expect(res.body.restaurants).toEqual(q === 'Li' ? expect.any(Array) : [])
  })

  it('finds a venue by its full name', async () => {
    const res = await search(`Olive Branch Taverna`)
    expect(res.body.restaurants.map((r: { venue_id: number }) => r.venue_id)).toEqual([900009])
  })

  it('treats SQL wildcards in the query as text', async () => {
    const res = await search('%%')
    expect(res.status).toBe(200)
    expect(res.body.restaurants).toEqual([])
  })
})

describe('capabilities', () => {
  it('reports the executor as not ready until the platform is connected', async () => {
    const { token } = await createUserWithToken({ scopes: ['requests:read'] })
    const res = await api('/capabilities', { token })
    expect(res.status).toBe(200)
    expect(res.body.executor).toMatchObject({ ready: false, reason: 'resy_not_connected' })
    expect(['cloud', 'user_device']).toContain(res.body.executor.execution)
  })
})
