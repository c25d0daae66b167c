// The "Book this table" and "book for me" pages and their forms, for the signed-in owner only:
// another account's request answers "not found" and changes nothing; a form without its CSRF
// token is refused; a switch to alerts is a new revision that books nothing.
import { beforeAll, describe, expect, it } from 'vitest'
import { createOk, getRequest, validSpec } from '../helpers/requests'
import { seedVenues } from '../helpers/venues'
import { WebClient } from './web-client'

beforeAll(seedVenues)

async function ownerWithRequest(overrides: Record<string, unknown> = {}) {
  const owner = new WebClient()
  await owner.newUser()
  const token = await owner.createToken()
  const view = await createOk(token, validSpec(overrides))
  return { owner, token, id: String(view.id) }
}

describe('Book this table', () => {
  it('answers "not found" to another account, for the page and the press, and books nothing', async () => {
    const { id, token } = await ownerWithRequest()
    const stranger = new WebClient()
    await stranger.newUser()
    const table = encodeURIComponent('1|2026-12-05|19:30|Dining Room')
    expect((await stranger.get(`/requests/${id}/book?table=${table}`)).status).toBe(404)
    const csrf = await stranger.csrfFrom('/settings')
    const pressed = await stranger.post(`/requests/${id}/book`, { _csrf: csrf, table: '1|2026-12-05|19:30|Dining Room', terms: '0a1b2c3d' })
    expect(pressed.status).toBe(404)
    expect((await stranger.get(`/requests/${id}/book-for-me`)).status).toBe(404)
    const switched = await stranger.post(`/requests/${id}/mode`, { _csrf: csrf, revision: '1', mode: 'auto_book' })
    expect(switched.status).toBe(404)
    const view = await getRequest(token, id)
    expect(view.body).toMatchObject({ status: 'active', revision: 1, mode: 'alert_only' })
  })

  it('refuses a press or a switch without the form token', async () => {
    const { owner, id } = await ownerWithRequest()
    expect((await owner.post(`/requests/${id}/book`, { table: 'x', terms: '0a1b2c3d' })).status).toBe(403)
    expect((await owner.post(`/requests/${id}/mode`, { revision: '1', mode: 'auto_book' })).status).toBe(403)
  })

  it('says a table the request does not hold cannot be booked here, with the way back', async () => {
    const { owner, id } = await ownerWithRequest()
    const res = await owner.get(`/requests/${id}/book?table=${encodeURIComponent('1|2026-12-05|19:30|Dining Room')}`)
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('This request does not hold this table any more')
    expect(html).not.toContain('>Book this table</button>')
    expect(html).toContain(`href="/requests/${id}"`)
  })
})

describe('alert me / book for me', () => {
  it('switches to booking only from the approval of the exact spec, and back to alerts at once', async () => {
    const { owner, token, id } = await ownerWithRequest()
    const page = await owner.get(`/requests/${id}/book-for-me`)
    const html = await page.text()
    expect(html).toContain('Book for me: approve this request')
    expect(html).toContain('No deposits or prepaid meals.')
    const csrf = await owner.csrfFrom(`/requests/${id}/book-for-me`)

    const toBook = await owner.post(`/requests/${id}/mode`, { _csrf: csrf, revision: '1', mode: 'auto_book' })
    expect(toBook.status).toBe(303)
    expect((await getRequest(token, id)).body).toMatchObject({ status: 'active', revision: 2, mode: 'auto_book' })

    // The page showed revision 1: pressing it again approves nothing new.
    const stale = await owner.post(`/requests/${id}/mode`, { _csrf: csrf, revision: '1', mode: 'auto_book' })
    expect(stale.status).toBe(409)

    const back = await owner.post(`/requests/${id}/mode`, { _csrf: csrf, revision: '2', mode: 'alert_only' })
    expect(back.status).toBe(303)
    expect(back.headers.get('location')).toContain('done=alerts')
    expect((await getRequest(token, id)).body).toMatchObject({ status: 'active', revision: 3, mode: 'alert_only' })
  })
})

describe('likely addresses', () => {
  it.each([
    ['/inbox', '/notifications'],
    ['/alerts', '/notifications'],
    ['/request', '/requests'],
  ])('%s leads to %s', async (from, to) => {
    const res = await new WebClient().get(from)
    expect(res.status).toBe(301)
    expect(res.headers.get('location')).toBe(to)
  })
})
