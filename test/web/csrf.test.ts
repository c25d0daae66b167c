import { env } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { WebClient } from './web-client'

async function tokenCount(): Promise<number> {
  const row = await env.DB.prepare('select count(*) as n from access_tokens').first<{ n: number }>()
  return row?.n ?? 0
}

afterEach(() => {
  vi.useRealTimers()
})

const tokenForm = { name: 'Laptop', scopes: ['requests:read'] }

describe('CSRF protection', () => {
  it('refuses a signed-in form without a token and changes nothing', async () => {
    const client = new WebClient()
    await client.newUser()
    const before = await tokenCount()
    const res = await client.post('/assistants/tokens', tokenForm)
    expect(res.status).toBe(403)
    expect(await res.text()).toContain('This form has expired')
    expect(await tokenCount()).toBe(before)
  })

  it('refuses a token that belongs to another session', async () => {
    const alice = new WebClient()
    const bob = new WebClient()
    await alice.newUser()
    await bob.newUser()
    const bobsToken = await bob.csrfFrom('/assistants')
    const res = await alice.post('/assistants/tokens', { ...tokenForm, _csrf: bobsToken })
    expect(res.status).toBe(403)
  })

  it('accepts the token the page gave', async () => {
    const client = new WebClient()
    await client.newUser()
    const res = await client.post('/assistants/tokens', { ...tokenForm, _csrf: await client.csrfFrom('/assistants') })
    expect(res.status).toBe(201)
  })

  it('refuses sign-out without a token, and the session stays', async () => {
    const client = new WebClient()
    await client.newUser()
    const res = await client.post('/signout', {})
    expect(res.status).toBe(403)
    expect((await client.get('/assistants')).status).toBe(200)
  })

  it('refuses a signed-out form whose token does not match the double-submit cookie', async () => {
    const client = new WebClient()
    const email = `user-${crypto.randomUUID()}@example.com`
    await client.signUp(email, 'correct horse battery')
    await client.csrfFrom('/signin')
    const forged = await client.post('/signin', { email, password: 'correct horse battery', _csrf: 'forged-value' })
    expect(forged.status).toBe(403)
    const stranger = new WebClient()
    const noCookie = await stranger.post('/signin', { email, password: 'correct horse battery', _csrf: await client.csrfFrom('/signin') })
    expect(noCookie.status).toBe(403)
    expect(stranger.cookies.has('tw_session')).toBe(false)
  })

  it('refuses a signed-out token this service did not sign, even when cookie and form agree', async () => {
    const client = new WebClient()
    const email = `user-${crypto.randomUUID()}@example.com`
    await client.signUp(email, 'correct horse battery')
    client.cookies.set('tw_csrf', 'planted-by-someone-else')
    const res = await client.post('/signin', { email, password: 'correct horse battery', _csrf: 'planted-by-someone-else' })
    expect(res.status).toBe(403)
    expect(client.cookies.has('tw_session')).toBe(false)
  })

  it('refuses a signed-out token older than 12 hours', async () => {
    const client = new WebClient()
    const email = `user-${crypto.randomUUID()}@example.com`
    await client.signUp(email, 'correct horse battery')
    const token = await client.csrfFrom('/signin')
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 12 * 60 * 60 * 1000 + 60_000)
    const res = await client.post('/signin', { email, password: 'correct horse battery', _csrf: token })
    expect(res.status).toBe(403)
  })
})

describe('forms posted from another site', () => {
  it.each([
    ['Origin of another site', { Origin: 'https://evil.example' }],
    ['Origin null (a sandboxed or data: page)', { Origin: 'null' }],
    ['Sec-Fetch-Site cross-site', { 'Sec-Fetch-Site': 'cross-site' }],
    ['Sec-Fetch-Site same-site (a sibling subdomain)', { 'Sec-Fetch-Site': 'same-site' }],
  ])('are refused with a valid token: %s', async (_label, headers) => {
    const client = new WebClient()
    await client.newUser()
    const before = await tokenCount()
    const res = await client.post('/assistants/tokens', { ...tokenForm, _csrf: await client.csrfFrom('/assistants') }, headers)
    expect(res.status).toBe(403)
    expect(await tokenCount()).toBe(before)
  })

  it('a sign-in form posted from another site is refused (login CSRF)', async () => {
    const client = new WebClient()
    const email = `user-${crypto.randomUUID()}@example.com`
    await client.signUp(email, 'correct horse battery')
    const csrf = await client.csrfFrom('/signin')
    const res = await client.post('/signin', { email, password: 'correct horse battery', _csrf: csrf }, { 'Sec-Fetch-Site': 'cross-site' })
    expect(res.status).toBe(403)
    expect(client.cookies.has('tw_session')).toBe(false)
  })

  it('are accepted from this origin, as a browser sends them', async () => {
    const client = new WebClient()
    await client.newUser()
    const headers = { Origin: 'http://localhost', 'Sec-Fetch-Site': 'same-origin' }
    const res = await client.post('/assistants/tokens', { ...tokenForm, _csrf: await client.csrfFrom('/assistants') }, headers)
    expect(res.status).toBe(201)
  })
})
