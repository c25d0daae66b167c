import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { createOk } from '../helpers/requests'
import { seedVenues } from '../helpers/venues'
import { WebClient } from './web-client'

const ALL_SCOPES = ['restaurants:read', 'requests:read', 'requests:write', 'reservations:read']

async function createToken(client: WebClient, form: Record<string, string | string[]>) {
  const res = await client.post('/assistants/tokens', { ...form, _csrf: await client.csrfFrom('/assistants') })
  const html = await res.text()
  return { res, html, token: /spt_[0-9A-Za-z]+/.exec(html)?.[0] }
}

function capabilities(token: string) {
  return SELF.fetch('http://localhost/api/v1/capabilities', { headers: { Authorization: `Bearer ${token}` } })
}

describe('personal access tokens on the assistants page', () => {
  it('shows a new token once, with the warning, and never again', async () => {
    const client = new WebClient()
    await client.newUser()
    const { res, html, token } = await createToken(client, { name: 'Laptop', scopes: ALL_SCOPES })
    expect(res.status).toBe(201)
    expect(res.headers.get('Cache-Control')).toBe('no-store')
    expect(token).toBeDefined()
    expect(html).toContain('Never paste it into a chat')
    const again = await (await client.get('/assistants')).text()
    expect(again).not.toContain(token)
    expect(again).toContain('Laptop')
    expect(again).toContain(`${token?.slice(0, 8)}…${token?.slice(-4)}`)
  })

  it('creates a token that works on the API with the chosen scopes only', async () => {
    const client = new WebClient()
    await client.newUser()
    const { token } = await createToken(client, { name: 'Read only', scopes: ['requests:read'] })
    expect((await capabilities(token ?? '')).status).toBe(200)
    const search = await SELF.fetch('http://localhost/api/v1/restaurants?q=lilia', { headers: { Authorization: `Bearer ${token}` } })
    expect(search.status).toBe(403)
    const row = await env.DB.prepare('select scopes from access_tokens where name = ?').bind('Read only').first<{ scopes: string }>()
    expect(JSON.parse(row?.scopes ?? '[]')).toEqual(['requests:read'])
  })

  it('asks for a name and at least one scope', async () => {
    const client = new WebClient()
    await client.newUser()
    const { res, html, token } = await createToken(client, { name: '  ' })
    expect(res.status).toBe(422)
    expect(token).toBeUndefined()
    expect(html).toContain('Give the token a name')
    expect(html).toContain('Choose at least one scope')
  })

  it('revokes a token: the API refuses it and the page lists it as revoked', async () => {
    const client = new WebClient()
    await client.newUser()
    const { token } = await createToken(client, { name: 'Phone', scopes: ALL_SCOPES })
    const page = await (await client.get('/assistants')).text()
    const action = /href="(\/assistants\/tokens\/[^"]+\/revoke)"/.exec(page)?.[1] ?? ''
    const res = await client.post(action, { _csrf: await client.csrfFrom('/assistants') })
    expect(res.status).toBe(303)
    const denied = await capabilities(token ?? '')
    expect(denied.status).toBe(401)
    expect(((await denied.json()) as { code: string }).code).toBe('authorization_revoked')
    const after = await (await client.get('/assistants?revoked=1')).text()
    expect(after).toContain('Token revoked')
    expect(after).toContain('Revoked and expired tokens (1)')
  })

  it("cannot revoke another user's token", async () => {
    const alice = new WebClient()
    const mallory = new WebClient()
    await alice.newUser()
    await mallory.newUser()
    const { token } = await createToken(alice, { name: 'Alice laptop', scopes: ALL_SCOPES })
    const page = await (await alice.get('/assistants')).text()
    const action = /href="(\/assistants\/tokens\/[^"]+\/revoke)"/.exec(page)?.[1] ?? ''
    await mallory.post(action, { _csrf: await mallory.csrfFrom('/assistants') })
    expect((await capabilities(token ?? '')).status).toBe(200)
  })

  it("revoking another user's token id changes nothing: their requests stay, and the page says so", async () => {
    await seedVenues()
    const alice = new WebClient()
    const mallory = new WebClient()
    await alice.newUser()
    await mallory.newUser()
    const { token } = await createToken(alice, { name: 'Alice laptop', scopes: ALL_SCOPES })
    const created = await createOk(token ?? '')
    const page = await (await alice.get('/assistants')).text()
    const action = /href="(\/assistants\/tokens\/[^"]+\/revoke)"/.exec(page)?.[1] ?? ''

    const res = await mallory.post(action, { _csrf: await mallory.csrfFrom('/assistants') })
    const row = await env.DB.prepare('select status from requests where id = ?').bind(String(created.id)).first<{ status: string }>()
    expect(row?.status).toBe('active')
    expect((await capabilities(token ?? '')).status).toBe(200)
    expect(res.status).toBe(404)
    expect(await res.text()).toContain('That token is not one of yours, so nothing was revoked.')
  })

  it('shows the section for OAuth-connected assistants, empty for now', async () => {
    const client = new WebClient()
    await client.newUser()
    const html = await (await client.get('/assistants')).text()
    expect(html).toContain('Connected assistants')
    expect(html).toContain('No connected assistants.')
  })
})
