import { SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { createOk, getRequest, update, validSpec } from '../helpers/requests'
import { dateIn, NEW_YORK } from '../helpers/time'
import { seedVenues } from '../helpers/venues'
import { WebClient } from './web-client'

beforeAll(seedVenues)

/** A signed-in owner whose assistant created an auto_book request through the API. */
async function ownerWithRequest(overrides: Record<string, unknown> = {}) {
  const owner = new WebClient()
  await owner.newUser()
  const token = await owner.createToken()
  const spec = validSpec({ mode: 'auto_book', max_cancellation_fee_per_person: 25, fee_review_hours: 3, ...overrides })
  const view = await createOk(token, spec)
  const actionUrl = typeof view.action_url === 'string' ? new URL(view.action_url) : null
  const actionPath = actionUrl ? actionUrl.pathname + actionUrl.search : ''
  return { owner, token, id: String(view.id), actionPath }
}

function hiddenRevision(html: string): string | undefined {
  return /name="revision" value="(\d+)"/.exec(html)?.[1]
}

describe('the approval page', () => {
  it('shows what will be booked, in words, with the risk notice', async () => {
    const { owner, actionPath } = await ownerWithRequest()
    const res = await owner.get(actionPath)
    expect(res.status).toBe(200)
    const html = await res.text()
    const weekday = new Intl.DateTimeFormat('en-US', { weekday: 'short', timeZone: 'UTC' }).format(
      new Date(`${dateIn(NEW_YORK, 7)}T12:00:00Z`),
    )
    for (const text of [
      'Lilac Trattoria</strong>, West Village, New York',
      weekday,
      'Between 6:00 PM and 9:00 PM ET',
      '2 people',
      'Any seating',
      'Book only if the cancellation fee is at most $25 per person; the free-cancellation deadline must be at least 3 hours after booking.',
      'No deposits or prepaid meals.',
      'Watching ends',
      'terms prohibit automated access and it may deactivate accounts that use such tools',
    ]) {
      expect(html).toContain(text)
    }
    expect(hiddenRevision(html)).toBe('1')
  })

  it('says which money terms stop an automatic booking, in the words the alert uses', async () => {
    const { owner, actionPath } = await ownerWithRequest()
    const html = await (await owner.get(actionPath)).text()
    const terms = /<dd id="never-booked">([\s\S]*?)<\/dd>/.exec(html)?.[1] ?? ''
    for (const text of [
      'booking would charge you anything right away',
      'a booking, service or platform fee',
      'the platform does not say what booking costs',
      'the restaurant&#39;s notes mention a fee, a charge, a deposit, a prepayment or a dollar amount',
      'the restaurant charges bigger parties a higher cancellation fee, its rule covers a party of 2 people, and that fee is above your limit',
      'Only for such a table does Tablewatch give the platform your card on file',
    ]) {
      expect(terms).toContain(text)
    }
    // A party is never called large by Tablewatch: only a restaurant's own rule makes it one.
    expect(terms).not.toMatch(/large part/)
  })

  it('approves the shown revision: the request becomes active', async () => {
    const { owner, token, id, actionPath } = await ownerWithRequest()
    const res = await owner.post(`/requests/${id}/approve`, { revision: '1', _csrf: await owner.csrfFrom(actionPath) })
    expect(res.status).toBe(303)
    expect(res.headers.get('Location')).toBe(`/requests/${id}?done=approved`)
    expect((await getRequest(token, id)).body.status).toBe('active')
    const page = await (await owner.get(`/requests/${id}?done=approved`)).text()
    expect(page).toContain('Approved.')
    expect(page).toContain('Watching')
  })

  it('shows the current revision when the link is stale, and refuses to approve the old one', async () => {
    const { owner, token, id, actionPath } = await ownerWithRequest()
    expect((await update(token, id, 1, validSpec({ mode: 'auto_book', party_size: 4 }))).status).toBe(200)
    const stale = await (await owner.get(actionPath)).text()
    expect(stale).toContain('This request changed after the link was made.')
    expect(stale).toContain('4 people')
    expect(hiddenRevision(stale)).toBe('2')
    const refused = await owner.post(`/requests/${id}/approve`, { revision: '1', _csrf: await owner.csrfFrom(actionPath) })
    expect(refused.status).toBe(409)
    const page = await refused.text()
    expect(page).toContain('Below is the request as it is now')
    expect(page).not.toMatch(/version \d/)
    expect((await getRequest(token, id)).body.status).toBe('needs_approval')
  })

  it('refuses another user as if the request did not exist', async () => {
    const { token, id, actionPath } = await ownerWithRequest()
    const stranger = new WebClient()
    await stranger.newUser()
    expect((await stranger.get(actionPath)).status).toBe(404)
    const res = await stranger.post(`/requests/${id}/approve`, { revision: '1', _csrf: await stranger.csrfFrom('/settings') })
    expect(res.status).toBe(404)
    expect((await getRequest(token, id)).body.status).toBe('needs_approval')
  })

  it('sends a signed-out visitor to sign in, and back to the same link', async () => {
    const { actionPath } = await ownerWithRequest()
    const res = await new WebClient().get(actionPath)
    expect(res.status).toBe(303)
    expect(res.headers.get('Location')).toBe(`/signin?next=${encodeURIComponent(actionPath)}`)
  })

  it('cannot be approved with the access token alone', async () => {
    const { token, id } = await ownerWithRequest()
    const res = await SELF.fetch(`http://localhost/requests/${id}/approve`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'revision=1',
      redirect: 'manual',
    })
    // No session, so no form token either: refused before anything else happens.
    expect(res.status).toBe(403)
    expect((await getRequest(token, id)).body.status).toBe('needs_approval')
  })

  it('declines: nothing will be watched or booked', async () => {
    const { owner, token, id, actionPath } = await ownerWithRequest()
    const res = await owner.post(`/requests/${id}/decline`, { _csrf: await owner.csrfFrom(actionPath) })
    expect(res.headers.get('Location')).toBe(`/requests/${id}?done=declined`)
    expect((await getRequest(token, id)).body.status).toBe('stopped')
  })
})

describe('the request page', () => {
  it('stops watching and says that stopping never cancels a reservation', async () => {
    const { owner, token, id } = await ownerWithRequest({ mode: 'alert_only' })
    const page = await (await owner.get(`/requests/${id}`)).text()
    expect(page).toContain('It never cancels a reservation')
    const res = await owner.post(`/requests/${id}/stop`, { _csrf: await owner.csrfFrom(`/requests/${id}`) })
    expect(res.headers.get('Location')).toBe(`/requests/${id}?done=stopped`)
    expect((await getRequest(token, id)).body.status).toBe('stopped')
    const after = await (await owner.get(`/requests/${id}?done=stopped`)).text()
    expect(after).toContain('Stopped.')
    expect(after).not.toContain('Stop watching</button>')
  })
})
