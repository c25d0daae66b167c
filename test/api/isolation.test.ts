// A token sees only the requests and reservations created through it: another token, of the
// same user or another, gets 404 as if the id did not exist, and changes nothing.
import { beforeAll, describe, expect, it } from 'vitest'
import { api, expectError } from '../helpers/api'
import { createTokenForUser, createUserWithToken } from '../helpers/auth'
import { createOk, getRequest, insertReservation, stop, update, validSpec } from '../helpers/requests'
import { seedVenues } from '../helpers/venues'

beforeAll(seedVenues)

async function ownerAndOthers() {
  const owner = await createUserWithToken()
  const sameUser = await createTokenForUser(owner.userId)
  const otherUser = await createUserWithToken()
  return {
    owner,
    others: [
      ['another token of the same user', sameUser.token],
      ['a token of another user', otherUser.token],
    ] as const,
  }
}

describe('a request created by another token', () => {
  it('cannot be read, updated or stopped, and stays as it was', async () => {
    const { owner, others } = await ownerAndOthers()
    const created = await createOk(owner.token)
    const id = created.id as string
    for (const [, token] of others) {
      expectError(await getRequest(token, id), 404, 'request_not_found')
      expectError(await update(token, id, 1, validSpec({ title: 'hijacked' })), 404, 'request_not_found')
      expectError(await stop(token, id), 404, 'request_not_found')
    }
    const after = await getRequest(owner.token, id)
    expect(after.body).toMatchObject({ status: 'active', revision: 1, title: created.title })
  })

  it('answers the same 404 as an id that never existed', async () => {
    const { token } = await createUserWithToken()
    expectError(await getRequest(token, 'sr_doesnotexist000000'), 404, 'request_not_found')
    expectError(await update(token, 'sr_doesnotexist000000', 1, validSpec()), 404, 'request_not_found')
    expectError(await stop(token, 'sr_doesnotexist000000'), 404, 'request_not_found')
  })

  it('does not appear in the list of another token', async () => {
    const { owner, others } = await ownerAndOthers()
    const mine = await createOk(owner.token)
    for (const [, token] of others) {
      const theirs = await createOk(token, validSpec({ title: 'theirs' }))
      const listed = await api('/requests', { token })
      expect(listed.body.requests.map((r: { id: string }) => r.id)).toEqual([theirs.id])
    }
    const ownList = await api('/requests', { token: owner.token })
    expect(ownList.body.requests.map((r: { id: string }) => r.id)).toEqual([mine.id])
  })
})

describe('a reservation', () => {
  it('is shown to the token whose request made it', async () => {
    const { token } = await createUserWithToken()
    const created = await createOk(token)
    const reservationId = await insertReservation(created.id as string)
    const res = await api(`/reservations/${reservationId}`, { token })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ reservation_id: reservationId, verified: true })
  })

  it('reports verified false until the platform confirms it', async () => {
    const { token } = await createUserWithToken()
    const created = await createOk(token)
    const reservationId = await insertReservation(created.id as string, { verified: false })
    const res = await api(`/reservations/${reservationId}`, { token })
    expect(res.body).toMatchObject({ reservation_id: reservationId, verified: false })
  })

  it('still stands, verified, after its request is stopped', async () => {
    const { token } = await createUserWithToken()
    const created = await createOk(token)
    const reservationId = await insertReservation(created.id as string)
    const stopped = await stop(token, created.id as string)
    expect(stopped.body).toMatchObject({
      status: 'stopped',
      reservations: [expect.objectContaining({ reservation_id: reservationId, verified: true })],
    })
    expect((await api(`/reservations/${reservationId}`, { token })).body).toMatchObject({ reservation_id: reservationId, verified: true })
  })

  it('answers 404 reservation_not_found to any other token, even one of the same user', async () => {
    const { owner, others } = await ownerAndOthers()
    const created = await createOk(owner.token)
    const reservationId = await insertReservation(created.id as string)
    for (const [, token] of others) {
      expectError(await api(`/reservations/${reservationId}`, { token }), 404, 'reservation_not_found')
    }
  })

  it('answers 404 reservation_not_found to an id that never existed', async () => {
    const { token } = await createUserWithToken()
    expectError(await api('/reservations/987654321', { token }), 404, 'reservation_not_found')
  })

  it('refuses a reservation id that is not an integer with a 422 on the path', async () => {
    const { token } = await createUserWithToken()
    const res = await api('/reservations/abc', { token })
    expect(res.status).toBe(422)
    expect(res.body.detail[0].loc.slice(0, 2)).toEqual(['path', 'reservation_id'])
  })
})
