import { env } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { sha256Hex } from '../../src/lib/random'
import { setCookieLine, WebClient } from './web-client'

const PASSWORD = 'correct horse battery'
const DAY_MS = 24 * 60 * 60 * 1000

async function signedUpEmail(client: WebClient): Promise<string> {
  const email = `user-${crypto.randomUUID()}@example.com`
  await client.signUp(email, PASSWORD)
  return email
}

describe('session cookie', () => {
  it('is HttpOnly, SameSite=Lax, path /, expires in 14 days, and not Secure on localhost', async () => {
    const client = new WebClient('http://localhost')
    const email = await signedUpEmail(client)
    const res = await client.signIn(email, PASSWORD)
    expect(res.status).toBe(303)
    const line = setCookieLine(res, 'tw_session') ?? ''
    expect(line).toMatch(/HttpOnly/i)
    expect(line).toMatch(/SameSite=Lax/i)
    expect(line).toMatch(/Path=\//i)
    expect(line).not.toMatch(/Secure/i)
    const expires = Date.parse(/Expires=([^;]+)/i.exec(line)?.[1] ?? '')
    expect(Math.abs(expires - (Date.now() + 14 * DAY_MS))).toBeLessThan(60_000)
  })

  it('is Secure and __Host- prefixed outside localhost, like the signed-out CSRF cookie', async () => {
    const client = new WebClient('https://tablewatch.example')
    const email = await signedUpEmail(client)
    const page = await new WebClient('https://tablewatch.example').get('/signin')
    const csrfLine = setCookieLine(page, '__Host-tw_csrf') ?? ''
    expect(csrfLine).toMatch(/; Secure/i)
    const res = await client.signIn(email, PASSWORD)
    expect(res.status).toBe(303)
    const line = setCookieLine(res, '__Host-tw_session') ?? ''
    expect(line).toMatch(/; Secure/i)
    expect(line).toMatch(/; Path=\/(;|$)/i)
    expect(line).not.toMatch(/Domain=/i)
    expect(setCookieLine(res, 'tw_session')).toBeUndefined()
    expect((await client.get('/assistants')).status).toBe(200)
  })

  it('stores only the SHA-256 of the cookie value', async () => {
    const client = new WebClient()
    await client.newUser(PASSWORD)
    const value = client.cookies.get('tw_session') ?? ''
    const rows = await env.DB.prepare('select id_hash from sessions').all<{ id_hash: string }>()
    const hashes = rows.results.map((r) => r.id_hash)
    expect(hashes).toContain(await sha256Hex(value))
    expect(hashes).not.toContain(value)
  })

  it('is replaced by a new session id at every sign-in', async () => {
    const client = new WebClient()
    const email = await client.newUser(PASSWORD)
    const first = client.cookies.get('tw_session')
    // Signing in again from a signed-in browser (e.g. an old tab) still rotates the session.
    await client.post('/signin', { email, password: PASSWORD, _csrf: await client.csrfFrom('/assistants') })
    expect(client.cookies.get('tw_session')).not.toBe(first)
    const stale = await env.DB.prepare('select count(*) as n from sessions where id_hash = ?')
      .bind(await sha256Hex(first ?? ''))
      .first<{ n: number }>()
    expect(stale?.n).toBe(0)
  })

  it('ends on sign-out: the cookie is cleared and the session deleted', async () => {
    const client = new WebClient()
    await client.newUser(PASSWORD)
    const value = client.cookies.get('tw_session') ?? ''
    const res = await client.post('/signout', { _csrf: await client.csrfFrom('/assistants') })
    expect(res.status).toBe(303)
    expect(setCookieLine(res, 'tw_session')).toMatch(/Max-Age=0/i)
    const row = await env.DB.prepare('select count(*) as n from sessions where id_hash = ?')
      .bind(await sha256Hex(value))
      .first<{ n: number }>()
    expect(row?.n).toBe(0)
    expect((await client.get('/assistants')).status).toBe(303)
  })

  it('is treated as signed out once it has expired', async () => {
    const client = new WebClient()
    await client.newUser(PASSWORD)
    expect((await client.get('/assistants')).status).toBe(200)
    const idHash = await sha256Hex(client.cookies.get('tw_session') ?? '')
    await env.DB.prepare('update sessions set expires_at = ? where id_hash = ?')
      .bind(Date.now() - 1, idHash)
      .run()
    const res = await client.get('/assistants')
    expect(res.status).toBe(303)
    expect(res.headers.get('Location')).toBe('/signin?next=%2Fassistants')
  })
})

describe('idle timeout', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('ends a session nobody used for a day, although its 14 days are not over', async () => {
    const client = new WebClient()
    await client.newUser(PASSWORD)
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + DAY_MS + 60_000)
    const res = await client.get('/assistants')
    expect(res.status).toBe(303)
    expect(res.headers.get('Location')).toBe('/signin?next=%2Fassistants')
  })

  it('keeps a session that is used: each visit starts the day again', async () => {
    const client = new WebClient()
    await client.newUser(PASSWORD)
    vi.useFakeTimers({ toFake: ['Date'] })
    for (let day = 0; day < 3; day++) {
      vi.setSystemTime(Date.now() + DAY_MS - 60 * 60_000)
      expect((await client.get('/assistants')).status).toBe(200)
    }
  })
})

describe('sign-in redirects', () => {
  it('sends a signed-out visitor to sign-in and back to the page afterwards', async () => {
    const client = new WebClient()
    const email = await signedUpEmail(client)
    const page = await client.get('/settings?tab=1')
    expect(page.headers.get('Location')).toBe('/signin?next=%2Fsettings%3Ftab%3D1')
    const res = await client.signIn(email, PASSWORD, '/settings?tab=1')
    expect(res.headers.get('Location')).toBe('/settings?tab=1')
  })

  it.each(['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)'])(
    'never returns to another site (next=%s)',
    async (next) => {
      const client = new WebClient()
      const email = await signedUpEmail(client)
      const res = await client.signIn(email, PASSWORD, next)
      expect(res.status).toBe(303)
      expect(res.headers.get('Location')).toBe('/')
    },
  )

  // Paths that pass a check of the raw string but normalise to `//host`, which a browser reads as
  // another site.
  const DOT_SEGMENTS = ['/.//evil.example/phish', '/..//evil.example/phish', '/x/..//evil.example/phish', '/\t/evil.example/phish']

  it.each(DOT_SEGMENTS)('never leaves the site from a path that normalises to another host (signed in, next=%s)', async (next) => {
    const client = new WebClient()
    await client.newUser(PASSWORD)
    for (const page of ['/signin', '/signup']) {
      const res = await client.get(`${page}?next=${encodeURIComponent(next)}`)
      expect(res.status).toBe(303)
      expect(res.headers.get('Location')).toBe('/')
    }
  })

  it.each(DOT_SEGMENTS)('never leaves the site after signing in (next=%s)', async (next) => {
    const client = new WebClient()
    const email = await signedUpEmail(client)
    const res = await client.signIn(email, PASSWORD, next)
    expect(res.headers.get('Location')).toBe('/')
  })
})
