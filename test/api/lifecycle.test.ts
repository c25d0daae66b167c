// The request's life through the REST routes: create in each mode, read, update with its
// revision rules, stop, and the statuses that refuse a change.
import { beforeAll, describe, expect, it } from 'vitest'
import { api, expectError, newKey } from '../helpers/api'
import { createUserWithToken } from '../helpers/auth'
import { createOk, getRequest, stop, update, validSpec } from '../helpers/requests'
import { DAY_MS, dateIn, expiresIn, instantIn, isoWithOffset, NEW_YORK } from '../helpers/time'
import { seedVenues } from '../helpers/venues'

beforeAll(seedVenues)

function expectActionUrl(view: Record<string, unknown>) {
  expect(String(view.action_url)).toMatch(/^https?:\/\//)
  expect(String(view.action_url).endsWith(`/requests/${view.id}/approve?revision=${view.revision}`)).toBe(true)
}

describe('create', () => {
  it('starts an alert_only request active, at revision 1, without an action_url', async () => {
    const { token } = await createUserWithToken()
    const spec = validSpec()
    const view = await createOk(token, spec)
    const { expires_at: _sentAs, ...fields } = spec
    expect(view.id).toMatch(/^sr_/)
    expect(view).toMatchObject({ status: 'active', revision: 1, reservations: [], ...fields })
    expect(view.action_url).toBeUndefined()
    expect(view.executor).toMatchObject({ ready: false, reason: 'resy_not_connected' })
  })

  it('holds an auto_book request for approval with an action_url for its revision', async () => {
    const { token } = await createUserWithToken()
    const view = await createOk(token, validSpec({ mode: 'auto_book', max_cancellation_fee_per_person: 25 }))
    expect(view).toMatchObject({ status: 'needs_approval', revision: 1, mode: 'auto_book', max_cancellation_fee_per_person: 25 })
    expectActionUrl(view)
  })

  it('returns the same view on a later read', async () => {
    const { token } = await createUserWithToken()
    const view = await createOk(token, validSpec({ mode: 'auto_book' }))
    const read = await getRequest(token, view.id)
    expect(read.status).toBe(200)
    expect(read.body).toMatchObject({ id: view.id, status: 'needs_approval', revision: 1, action_url: view.action_url, dates: view.dates })
  })

  it('shows expires_at as the same instant that was sent, and its timestamps as ISO instants', async () => {
    const { token } = await createUserWithToken()
    const spec = validSpec()
    const view = await createOk(token, spec)
    expect(Date.parse(view.expires_at)).toBe(Date.parse(spec.expires_at as string))
    expect(Number.isNaN(Date.parse(view.created_at))).toBe(false)
    expect(Number.isNaN(Date.parse(view.updated_at))).toBe(false)
  })
})

describe('update', () => {
  it('keeps an alert_only request active and moves it to the next revision', async () => {
    const { token } = await createUserWithToken()
    const view = await createOk(token)
    const res = await update(token, view.id, 1, validSpec({ party_size: 4, earliest_time: '19:00' }))
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: view.id, status: 'active', revision: 2, party_size: 4, earliest_time: '19:00' })
    expect(res.body.action_url).toBeUndefined()
  })

  it('refuses a stale revision with 409 revision_conflict and keeps the spec', async () => {
    const { token } = await createUserWithToken()
    const view = await createOk(token)
    expect((await update(token, view.id, 1, validSpec({ party_size: 4 }))).status).toBe(200)
    expectError(await update(token, view.id, 1, validSpec({ party_size: 6 })), 409, 'revision_conflict')
    expectError(await update(token, view.id, 7, validSpec({ party_size: 6 })), 409, 'revision_conflict')
    expect((await getRequest(token, view.id)).body).toMatchObject({ revision: 2, party_size: 4 })
  })

  it('refuses revision 0 and an unknown field in the update body as validation errors', async () => {
    const { token } = await createUserWithToken()
    const view = await createOk(token)
    const zero = await update(token, view.id, 0, validSpec())
    expect(zero.status).toBe(422)
    expect(zero.body.detail[0].loc.slice(0, 2)).toEqual(['body', 'revision'])
    const extra = await api(`/requests/${view.id}`, {
      method: 'PUT',
      token,
      idempotencyKey: 'update-extra-1',
      body: { revision: 1, spec: validSpec(), note: 'x' },
    })
    expect(extra.status).toBe(422)
    const unknownSpecField = await update(token, view.id, 1, validSpec({ colour: 'red' }))
    expect(unknownSpecField.status).toBe(422)
    expect(unknownSpecField.body.detail.map((d: { loc: unknown[] }) => d.loc)).toContainEqual(['body', 'spec', 'colour'])
  })

  it('sends a changed auto_book request back for approval with a new action_url', async () => {
    const { token } = await createUserWithToken()
    const view = await createOk(token, validSpec({ mode: 'auto_book' }))
    const res = await update(token, view.id, 1, validSpec({ mode: 'auto_book', party_size: 3 }))
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: 'needs_approval', revision: 2 })
    expectActionUrl(res.body)
    expect(res.body.action_url).not.toBe(view.action_url)
  })

  it('sends an alert_only request switched to auto_book to approval', async () => {
    const { token } = await createUserWithToken()
    const view = await createOk(token)
    const res = await update(token, view.id, 1, validSpec({ mode: 'auto_book' }))
    expect(res.body).toMatchObject({ status: 'needs_approval', revision: 2, mode: 'auto_book' })
    expectActionUrl(res.body)
  })

  it('changes nothing when the spec is identical, keeping the revision', async () => {
    const { token } = await createUserWithToken()
    const spec = validSpec({ mode: 'auto_book' })
    const view = await createOk(token, spec)
    const res = await update(token, view.id, 1, spec)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: 'needs_approval', revision: 1, action_url: view.action_url })
  })

  it('treats a spec that spells out the defaults as identical', async () => {
    const { token } = await createUserWithToken()
    const spec = validSpec()
    const view = await createOk(token, spec)
    const spelled = { ...spec, seating: 'any', max_cancellation_fee_per_person: 0, fee_review_hours: 3, max_bookings: 1 }
    const res = await update(token, view.id, 1, spelled)
    expect(res.body).toMatchObject({ status: 'active', revision: 1 })
  })

  it('checks the new spec like a create does', async () => {
    const { token } = await createUserWithToken()
    const view = await createOk(token)
    expectError(await update(token, view.id, 1, validSpec({ venue_ids: [999_999_902] })), 422, 'venue_not_found')
    const bad = await update(token, view.id, 1, validSpec({ party_size: 21 }))
    expect(bad.body.detail[0].loc).toEqual(['body', 'spec', 'party_size'])
    expect((await getRequest(token, view.id)).body).toMatchObject({ revision: 1, party_size: 2 })
  })

  it('refuses an expires_at in the past or after the last window, as create does', async () => {
    const { token } = await createUserWithToken()
    const view = await createOk(token)
    expectError(await update(token, view.id, 1, validSpec({ expires_at: expiresIn(-60_000) })), 422, 'invalid_expiry')
    const last = dateIn(NEW_YORK, 7)
    const late = isoWithOffset(instantIn(NEW_YORK, last, '21:00') + 60_000)
    expectError(await update(token, view.id, 1, validSpec({ dates: [last], expires_at: late })), 422, 'invalid_expiry')
  })

  it('refuses an expires_at after the expiry of the token that updates', async () => {
    const { token } = await createUserWithToken({ expiresAt: Date.now() + 5 * DAY_MS })
    const view = await createOk(token)
    const spec = validSpec({ dates: [dateIn(NEW_YORK, 20)], expires_at: expiresIn(10 * DAY_MS) })
    expectError(await update(token, view.id, 1, spec), 422, 'grant_expires_first')
  })

  it('refuses an update body without a spec or without a revision', async () => {
    const { token } = await createUserWithToken()
    const view = await createOk(token)
    const noSpec = await api(`/requests/${view.id}`, { method: 'PUT', token, idempotencyKey: newKey(), body: { revision: 1 } })
    expect(noSpec.status).toBe(422)
    expect(noSpec.body.detail[0].loc).toEqual(['body', 'spec'])
    const noRevision = await api(`/requests/${view.id}`, { method: 'PUT', token, idempotencyKey: newKey(), body: { spec: validSpec() } })
    expect(noRevision.status).toBe(422)
    expect(noRevision.body.detail[0].loc).toEqual(['body', 'revision'])
  })
})

describe('stop', () => {
  it('stops an active request and answers 200 with the view', async () => {
    const { token } = await createUserWithToken()
    const view = await createOk(token)
    const res = await stop(token, view.id)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: view.id, status: 'stopped' })
    expect((await getRequest(token, view.id)).body.status).toBe('stopped')
  })

  it('stops a request awaiting approval, which then offers no action_url', async () => {
    const { token } = await createUserWithToken()
    const view = await createOk(token, validSpec({ mode: 'auto_book' }))
    const res = await stop(token, view.id)
    expect(res.body).toMatchObject({ status: 'stopped' })
    expect(res.body.action_url).toBeUndefined()
  })

  it('answers 200 again when stopping a stopped request', async () => {
    const { token } = await createUserWithToken()
    const view = await createOk(token)
    await stop(token, view.id)
    const again = await stop(token, view.id)
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ id: view.id, status: 'stopped' })
  })

  it('refuses to update a stopped request with 409 request_closed', async () => {
    const { token } = await createUserWithToken()
    const view = await createOk(token)
    await stop(token, view.id)
    expectError(await update(token, view.id, 1, validSpec({ party_size: 5 })), 409, 'request_closed')
  })
})
