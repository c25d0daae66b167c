import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { WebClient } from './web-client'

async function tokenCount(): Promise<number> {
  const row = await env.DB.prepare('select count(*) as n from access_tokens').first<{ n: number }>()
  return row?.n ?? 0
}

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
})
