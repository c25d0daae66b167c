// Approval moves an auto_book request from needs_approval to active. It is the user's act in
// the service's own pages (the approveRequest use case), never something a token can do.
import { env, SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { approveRequest } from '../../src/request-use-cases/approve'
import { api } from '../helpers/api'
import { createUser, createUserWithToken } from '../helpers/auth'
import { createOk, getRequest, update, validSpec } from '../helpers/requests'
import { seedVenues } from '../helpers/venues'

beforeAll(seedVenues)

async function autoBookRequest() {
  const owner = await createUserWithToken()
  const spec = validSpec({ mode: 'auto_book' })
  const view = await createOk(owner.token, spec)
  return { ...owner, spec, view, id: view.id as string }
}

describe('approval by the owner', () => {
  it('activates the approved revision and drops the action_url', async () => {
    const { userId, token, id } = await autoBookRequest()
    const approved = await approveRequest({ env }, { requestId: id, revision: 1, userId })
    expect(approved).toMatchObject({ id, status: 'active', revision: 1 })
    const read = await getRequest(token, id)
    expect(read.body).toMatchObject({ status: 'active', revision: 1 })
    expect(read.body.action_url).toBeUndefined()
  })

  it('refuses a revision that an update has replaced', async () => {
    const { userId, token, id } = await autoBookRequest()
    expect((await update(token, id, 1, validSpec({ mode: 'auto_book', party_size: 5 }))).status).toBe(200)
    await expect(approveRequest({ env }, { requestId: id, revision: 1, userId })).rejects.toMatchObject({ code: 'revision_conflict' })
    expect((await getRequest(token, id)).body).toMatchObject({ status: 'needs_approval', revision: 2 })
  })

  it('refuses another user as if the request did not exist', async () => {
    const { id, token } = await autoBookRequest()
    const stranger = await createUser()
    await expect(approveRequest({ env }, { requestId: id, revision: 1, userId: stranger })).rejects.toMatchObject({
      code: 'request_not_found',
    })
    expect((await getRequest(token, id)).body.status).toBe('needs_approval')
  })

  it('refuses a request that is not waiting for approval', async () => {
    const owner = await createUserWithToken()
    const alert = await createOk(owner.token)
    await expect(approveRequest({ env }, { requestId: alert.id, revision: 1, userId: owner.userId })).rejects.toMatchObject({
      code: 'request_closed',
    })
  })

  it('sends an approved request that is changed back for approval with a new action_url', async () => {
    const { userId, token, id } = await autoBookRequest()
    await approveRequest({ env }, { requestId: id, revision: 1, userId })
    const res = await update(token, id, 1, validSpec({ mode: 'auto_book', latest_time: '21:30' }))
    expect(res.body).toMatchObject({ status: 'needs_approval', revision: 2 })
    expect(String(res.body.action_url).endsWith(`/requests/${id}/approve?revision=2`)).toBe(true)
  })

  it('keeps an approved request active when the update repeats its spec', async () => {
    const { userId, token, id, spec } = await autoBookRequest()
    await approveRequest({ env }, { requestId: id, revision: 1, userId })
    const res = await update(token, id, 1, spec)
    expect(res.body).toMatchObject({ status: 'active', revision: 1 })
  })
})

describe('approval by an assistant', () => {
  it.each(['/requests/{id}/approve', '/requests/{id}/approval', '/requests/{id}/activate'])(
    'has no API route: POST /api/v1%s leaves the request waiting',
    async (template) => {
      const { token, id } = await autoBookRequest()
      const res = await api(template.replace('{id}', id), { method: 'POST', token, body: { revision: 1 } })
      expect(res.status).toBeGreaterThanOrEqual(400)
      expect(res.status).toBeLessThan(500)
      expect((await getRequest(token, id)).body.status).toBe('needs_approval')
    },
  )

  it('cannot approve by posting to the action_url with its bearer token', async () => {
    const { token, id, view } = await autoBookRequest()
    const url = new URL(view.action_url as string)
    const res = await SELF.fetch(`http://localhost${url.pathname}${url.search}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'revision=1',
    })
    expect(res.status).not.toBe(500)
    expect((await getRequest(token, id)).body.status).toBe('needs_approval')
  })

  it('cannot approve through an update that sends status active', async () => {
    const { token, id } = await autoBookRequest()
    const res = await update(token, id, 1, validSpec({ mode: 'auto_book', status: 'active' }))
    expect(res.status).toBe(422)
    expect((await getRequest(token, id)).body.status).toBe('needs_approval')
  })
})
