// A GET that records something (the inbox marks itself read, the approval page
// records the revision the owner saw) does so only for a navigation the owner started. Another
// site can open the page (SameSite=Lax sends the cookie on a top-level GET), but then it changes
// nothing. Before, both pages changed state for any GET.
import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { dbOf } from '../../src/db/client'
import { insertNotification } from '../../src/db/notifications'
import { createOk, validSpec } from '../helpers/requests'
import { seedVenues } from '../helpers/venues'
import { WebClient } from './web-client'

beforeAll(seedVenues)

const CROSS_SITE = { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate' }

async function unread(userId: string): Promise<number> {
  const row = await env.DB.prepare('select count(*) as n from notifications where user_id = ? and read_at is null')
    .bind(userId)
    .first<{ n: number }>()
  return row?.n ?? -1
}

async function seenRows(requestId: string): Promise<number> {
  const row = await env.DB.prepare('select count(*) as n from seen_revisions where request_id = ?').bind(requestId).first<{ n: number }>()
  return row?.n ?? -1
}

describe('pages opened from another site', () => {
  it('the inbox shows the notifications but leaves them unread; opened from here it reads them', async () => {
    const client = new WebClient()
    const email = await client.newUser()
    const user = await env.DB.prepare('select id from users where email = ?').bind(email).first<{ id: string }>()
    const userId = user?.id ?? ''
    await insertNotification(dbOf(env.DB), {
      userId,
      dedupeKey: crypto.randomUUID(),
      kind: 'alert',
      title: 'A table',
      body: 'Lilia · 19:00',
      link: '/notifications',
      createdAt: Date.now(),
    })
    const crossSite = await client.get('/notifications', CROSS_SITE)
    expect(crossSite.status).toBe(200)
    expect(await crossSite.text()).toContain('A table')
    expect(await unread(userId)).toBe(1)
    await client.get('/notifications', { 'Sec-Fetch-Site': 'same-origin' })
    expect(await unread(userId)).toBe(0)
  })

  it('the approval page shows the request but records no revision as seen; from a mail program it does', async () => {
    const owner = new WebClient()
    await owner.newUser()
    const token = await owner.createToken()
    const view = await createOk(token, validSpec({ mode: 'auto_book', max_cancellation_fee_per_person: 25, fee_review_hours: 3 }))
    const action = new URL(String(view.action_url))
    const crossSite = await owner.get(action.pathname + action.search, CROSS_SITE)
    expect(crossSite.status).toBe(200)
    expect(await seenRows(String(view.id))).toBe(0)
    await owner.get(action.pathname + action.search, { 'Sec-Fetch-Site': 'none' })
    expect(await seenRows(String(view.id))).toBe(1)
  })
})
