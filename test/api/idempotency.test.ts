// Idempotency-Key on create and update: required, well-formed, replayed with the original
// status and the current view, refused when reused for another body, scoped to the token,
// and holding under concurrent retries.
import { beforeAll, describe, expect, it } from 'vitest'
import { api, expectError, newKey } from '../helpers/api'
import { createTokenForUser, createUserWithToken } from '../helpers/auth'
import { countRequests, create, createOk, getRequest, stop, update, validSpec } from '../helpers/requests'
import { seedVenues } from '../helpers/venues'

beforeAll(seedVenues)

function expectHeaderError(res: Awaited<ReturnType<typeof api>>) {
  expect(res.status).toBe(422)
  const item = (res.body.detail as { loc: unknown[] }[] | undefined)?.[0]
  expect(item?.loc[0]).toBe('header')
  expect(String(item?.loc[1]).toLowerCase()).toBe('idempotency-key')
}

describe('create', () => {
  it('requires an Idempotency-Key and creates nothing without one', async () => {
    const { token, userId } = await createUserWithToken()
    expectError(await api('/requests', { method: 'POST', token, body: validSpec() }), 422, 'idempotency_key_required')
    expect(await countRequests(userId)).toBe(0)
  })

  it.each([
    ['7 characters', 'abcdefg'],
    ['129 characters', 'k'.repeat(129)],
    ['a space', 'retry key 001'],
    ['a slash', 'retry/key/001'],
    ['a non-ASCII letter', 'clé-de-retry-1'],
  ])('refuses a key of %s and creates nothing', async (_name, key) => {
    const { token, userId } = await createUserWithToken()
    expectHeaderError(await create(token, validSpec(), key))
    expect(await countRequests(userId)).toBe(0)
  })

  it.each([
    ['8 characters', 'abcd1234'],
    ['128 characters', 'K'.repeat(128)],
    ['every allowed punctuation', 'a.b:c_d-e'],
  ])('accepts a key of %s', async (_name, key) => {
    const { token } = await createUserWithToken()
    expect((await create(token, validSpec(), key)).status).toBe(201)
  })

  it('replays a retried create with the original status, the current view and Idempotent-Replayed', async () => {
    const { token, userId } = await createUserWithToken()
    const key = newKey()
    const spec = validSpec()
    const first = await create(token, spec, key)
    expect(first.status).toBe(201)
    expect(first.headers.get('Idempotent-Replayed')).toBeNull()
    expect((await stop(token, first.body.id)).status).toBe(200)

    const replay = await create(token, spec, key)
    expect(replay.status).toBe(201)
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true')
    expect(replay.body).toMatchObject({ id: first.body.id, status: 'stopped' })
    expect(await countRequests(userId)).toBe(1)
  })

  it('refuses the same key with a different spec with 409 idempotency_conflict', async () => {
    const { token, userId } = await createUserWithToken()
    const key = newKey()
    expect((await create(token, validSpec(), key)).status).toBe(201)
    expectError(await create(token, validSpec({ party_size: 4 }), key), 409, 'idempotency_conflict')
    expect(await countRequests(userId)).toBe(1)
  })

  it('keeps keys of different tokens apart, even for the same user', async () => {
    const { token, userId } = await createUserWithToken()
    const { token: second } = await createTokenForUser(userId)
    const key = newKey()
    const spec = validSpec()
    const a = await create(token, spec, key)
    const b = await create(second, spec, key)
    expect([a.status, b.status]).toEqual([201, 201])
    expect(b.headers.get('Idempotent-Replayed')).toBeNull()
    expect(b.body.id).not.toBe(a.body.id)
    expect(await countRequests(userId)).toBe(2)
  })

  it('does not remember a key whose create was refused, so a corrected retry succeeds', async () => {
    const { token, userId } = await createUserWithToken()
    const key = newKey()
    expect((await create(token, validSpec({ party_size: 0 }), key)).status).toBe(422)
    expect((await create(token, validSpec(), key)).status).toBe(201)
    expect(await countRequests(userId)).toBe(1)
  })

  it('creates exactly one request from 50 concurrent creates with one key', async () => {
    const { token, userId } = await createUserWithToken()
    const key = newKey()
    const spec = validSpec()
    const results = await Promise.all(Array.from({ length: 50 }, () => create(token, spec, key)))
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(201))
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1)
    expect(results.filter((r) => r.headers.get('Idempotent-Replayed') !== 'true')).toHaveLength(1)
    expect(await countRequests(userId)).toBe(1)
  })
})

describe('update', () => {
  it('requires an Idempotency-Key and changes nothing without one', async () => {
    const { token } = await createUserWithToken()
    const created = await createOk(token)
    const res = await api(`/requests/${created.id}`, { method: 'PUT', token, body: { revision: 1, spec: validSpec({ party_size: 3 }) } })
    expectError(res, 422, 'idempotency_key_required')
    expect((await getRequest(token, created.id)).body).toMatchObject({ revision: 1, party_size: 2 })
  })

  it('refuses a malformed key on update', async () => {
    const { token } = await createUserWithToken()
    const created = await createOk(token)
    expectHeaderError(await update(token, created.id, 1, validSpec({ party_size: 3 }), 'short'))
  })

  it('replays a retried update without applying it twice', async () => {
    const { token } = await createUserWithToken()
    const created = await createOk(token)
    const key = newKey()
    const body = validSpec({ party_size: 3 })
    const first = await update(token, created.id, 1, body, key)
    expect(first.status).toBe(200)
    expect(first.body.revision).toBe(2)
    const replay = await update(token, created.id, 1, body, key)
    expect(replay.status).toBe(200)
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true')
    expect(replay.body).toMatchObject({ id: created.id, revision: 2, party_size: 3 })
  })

  it('refuses the same key with a different update with 409 idempotency_conflict', async () => {
    const { token } = await createUserWithToken()
    const created = await createOk(token)
    const key = newKey()
    expect((await update(token, created.id, 1, validSpec({ party_size: 3 }), key)).status).toBe(200)
    expectError(await update(token, created.id, 2, validSpec({ party_size: 5 }), key), 409, 'idempotency_conflict')
    expect((await getRequest(token, created.id)).body).toMatchObject({ revision: 2, party_size: 3 })
  })

  it('keeps a key used for a create apart from the same key on an update', async () => {
    const { token } = await createUserWithToken()
    const key = newKey()
    const created = await create(token, validSpec(), key)
    expect(created.status).toBe(201)
    const updated = await update(token, created.body.id, 1, validSpec({ party_size: 6 }), key)
    expect(updated.status).toBe(200)
    expect(updated.body).toMatchObject({ revision: 2, party_size: 6 })
  })
})
