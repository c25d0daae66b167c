import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { dbOf } from '../../src/db/client'
import { insertNotification, insertOutboxEmail } from '../../src/db/notifications'
import { type Alert, notifyUserOfAll } from '../../src/notifications/notify'
import { WebClient } from './web-client'

async function userIdOf(email: string): Promise<string> {
  const row = await env.DB.prepare('select id from users where email = ?').bind(email).first<{ id: string }>()
  return row?.id ?? ''
}

async function notify(userId: string, title: string, dedupeKey = crypto.randomUUID()) {
  return insertNotification(dbOf(env.DB), {
    userId,
    dedupeKey,
    kind: 'alert',
    title,
    body: 'Lilia · Sat Dec 5 · 19:00 · 2 people',
    link: '/notifications',
    createdAt: Date.now(),
  })
}

function badge(html: string): string | undefined {
  return /<span class="badge"[^>]*>(\d+\+?)<\/span>/.exec(html)?.[1]
}

describe('inbox', () => {
  it('shows the unread count in the header on every page', async () => {
    const client = new WebClient()
    const userId = await userIdOf(await client.newUser())
    expect(badge(await (await client.get('/settings')).text())).toBeUndefined()
    await notify(userId, 'Table found at Lilia')
    await notify(userId, 'Table found at Via Carota')
    expect(badge(await (await client.get('/developers')).text())).toBe('2')
  })

  it('keeps one notification per dedupe key', async () => {
    const client = new WebClient()
    const userId = await userIdOf(await client.newUser())
    expect(await notify(userId, 'Table found', 'slot-1')).toBe(true)
    expect(await notify(userId, 'Table found', 'slot-1')).toBe(false)
    expect(badge(await (await client.get('/developers')).text())).toBe('1')
  })

  it("adds a poll's many tables at once, each once, however many there are", async () => {
    const client = new WebClient()
    const userId = await userIdOf(await client.newUser())
    await notify(userId, 'Table found at 19:00', 'slot-19:00')
    const alerts: Alert[] = Array.from({ length: 25 }, (_, i) => ({
      userId,
      requestId: null,
      dedupeKey: `slot-${i}:00`,
      kind: 'table_found',
      title: `Table found at ${i}:00`,
      body: 'Lilia · Sat Dec 5 · 2 people',
      link: null,
    }))
    const deps = { db: dbOf(env.DB), now: Date.now(), env, baseUrl: 'http://localhost' }
    expect(await notifyUserOfAll(deps, userId, alerts, () => {})).toBe(24)
    expect(await notifyUserOfAll(deps, userId, alerts, () => {})).toBe(0)
    expect(badge(await (await client.get('/developers')).text())).toBe('25')
  })

  it('clears the badge when the inbox is viewed, and shows what was new', async () => {
    const client = new WebClient()
    const userId = await userIdOf(await client.newUser())
    await notify(userId, 'First')
    await notify(userId, 'Second')
    expect(badge(await (await client.get('/developers')).text())).toBe('2')
    const inbox = await (await client.get('/notifications')).text()
    expect(badge(inbox)).toBeUndefined()
    expect(inbox.match(/status-unread">New</g)).toHaveLength(2)
    expect(badge(await (await client.get('/developers')).text())).toBeUndefined()
    const again = await (await client.get('/notifications')).text()
    expect(again).toContain('First')
    expect(again).not.toContain('status-unread">New<')
  })

  it("viewing one user's inbox reads nothing of another's", async () => {
    const alice = new WebClient()
    const mallory = new WebClient()
    const aliceId = await userIdOf(await alice.newUser())
    await mallory.newUser()
    await notify(aliceId, 'For Alice')
    expect(await (await mallory.get('/notifications')).text()).not.toContain('For Alice')
    expect(badge(await (await alice.get('/developers')).text())).toBe('1')
  })

  it('pages the inbox, twenty to a page, newest first', async () => {
    const client = new WebClient()
    const userId = await userIdOf(await client.newUser())
    for (let i = 1; i <= 23; i++) await notify(userId, `Alert number ${i}`, `n-${i}`)
    const first = await (await client.get('/notifications')).text()
    expect(first.match(/class="item-title"/g)).toHaveLength(20)
    expect(first).toContain('Page 1 of 2')
    const second = await (await client.get('/notifications?page=2')).text()
    expect(second.match(/class="item-title"/g)).toHaveLength(3)
    expect(second).toContain('Page 2 of 2')
  })
})

describe('outbox', () => {
  it("shows only the signed-in user's emails (SHOW_OUTBOX is on in local development)", async () => {
    expect(env.SHOW_OUTBOX).toBe('on')
    const alice = new WebClient()
    const bob = new WebClient()
    const aliceEmail = await alice.newUser()
    const bobEmail = await bob.newUser()
    const db = dbOf(env.DB)
    await insertOutboxEmail(db, {
      userId: await userIdOf(aliceEmail),
      toAddress: aliceEmail,
      subject: 'A table at Lilia',
      body: 'Book it here',
      createdAt: Date.now(),
    })
    await insertOutboxEmail(db, {
      userId: await userIdOf(bobEmail),
      toAddress: bobEmail,
      subject: 'For Bob only',
      body: '…',
      createdAt: Date.now(),
    })
    const page = await (await alice.get('/outbox')).text()
    expect(page).toContain('A table at Lilia')
    expect(page).not.toContain('For Bob only')
  })

  it('asks a signed-out visitor to sign in', async () => {
    const res = await new WebClient().get('/outbox')
    expect(res.headers.get('Location')).toBe('/signin?next=%2Foutbox')
  })
})

describe('pages', () => {
  it('answers an unknown page with the not-found page', async () => {
    const res = await new WebClient().get('/no-such-page')
    expect(res.status).toBe(404)
    expect(await res.text()).toContain('Page not found')
  })

  it('serves the stylesheet from public/', async () => {
    const res = await new WebClient().get('/styles.css')
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toContain('text/css')
  })

  it('sends a content security policy that allows no inline script', async () => {
    const res = await new WebClient().get('/')
    expect(res.headers.get('Content-Security-Policy')).toContain("script-src 'self'")
  })
})
