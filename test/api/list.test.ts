// GET /requests: this token's requests, newest first, paged by `limit` and an opaque cursor.
import { beforeAll, describe, expect, it } from 'vitest'
import { api } from '../helpers/api'
import { createUserWithToken } from '../helpers/auth'
import { createOk, stop, validSpec } from '../helpers/requests'
import { dateIn, NEW_YORK } from '../helpers/time'
import { seedVenues } from '../helpers/venues'

beforeAll(seedVenues)

async function createMany(token: string, count: number): Promise<string[]> {
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
    ids.push((await createOk(token, validSpec({ title: `dinner ${i}`, dates: [dateIn(NEW_YORK, 3 + i)] }))).id)
  }
  return ids
}

const idsOf = (res: Awaited<ReturnType<typeof api>>) => (res.body.requests as { id: string }[]).map((r) => r.id)

describe('list', () => {
  it('is empty, with no next cursor, for a token that created nothing', async () => {
    const { token } = await createUserWithToken()
    const res = await api('/requests', { token })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ requests: [], next_cursor: null })
  })

  it('shows full views, newest first, including stopped ones', async () => {
    const { token } = await createUserWithToken()
    const ids = await createMany(token, 3)
    await stop(token, ids[0]!)
    const res = await api('/requests', { token })
    expect(idsOf(res)).toEqual([...ids].reverse())
    expect(res.body.requests[2]).toMatchObject({ id: ids[0], status: 'stopped', revision: 1, title: 'dinner 0' })
    expect(res.body.requests[0]).toMatchObject({ status: 'active', reservations: [], executor: expect.objectContaining({ ready: false }) })
    expect(res.body.next_cursor).toBeNull()
  })

  it('pages with limit and the cursor it hands out, without gaps or repeats', async () => {
    const { token } = await createUserWithToken()
    const ids = await createMany(token, 5)
    const first = await api('/requests?limit=2', { token })
    expect(idsOf(first)).toEqual([ids[4], ids[3]])
    expect(typeof first.body.next_cursor).toBe('string')
    const second = await api(`/requests?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`, { token })
    expect(idsOf(second)).toEqual([ids[2], ids[1]])
    const third = await api(`/requests?limit=2&cursor=${encodeURIComponent(second.body.next_cursor)}`, { token })
    expect(idsOf(third)).toEqual([ids[0]])
    expect(third.body.next_cursor).toBeNull()
  })

  it('shows 20 by default and offers a cursor for the rest', async () => {
    const { token } = await createUserWithToken()
    const ids = await createMany(token, 20)
    for (const id of ids.slice(0, 2)) await stop(token, id)
    ids.push(...(await createMany(token, 1)))
    const res = await api('/requests', { token })
    expect(idsOf(res)).toEqual([...ids].reverse().slice(0, 20))
    const rest = await api(`/requests?cursor=${encodeURIComponent(res.body.next_cursor)}`, { token })
    expect(idsOf(rest)).toEqual([ids[0]])
    const all = await api('/requests?limit=100', { token })
    expect(idsOf(all)).toHaveLength(21)
  })

  it.each(['0', '101', '-1', 'ten', '2.5'])('refuses limit=%s with a 422 on the query', async (limit) => {
    const { token } = await createUserWithToken()
    const res = await api(`/requests?limit=${limit}`, { token })
    expect(res.status).toBe(422)
    expect(res.body.detail[0].loc).toEqual(['query', 'limit'])
  })

  it('accepts limit=1 and limit=100', async () => {
    const { token } = await createUserWithToken()
    await createMany(token, 2)
    expect(idsOf(await api('/requests?limit=1', { token }))).toHaveLength(1)
    expect(idsOf(await api('/requests?limit=100', { token }))).toHaveLength(2)
  })

  it('refuses a cursor it did not hand out without a server error', async () => {
    const { token } = await createUserWithToken()
    const res = await api('/requests?cursor=not-a-real-cursor', { token })
    expect(res.status).toBe(422)
  })
})
