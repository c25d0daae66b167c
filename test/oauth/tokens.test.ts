// Access tokens, refresh rotation, expiry, revocation, and OAuth tokens on both resources.
import { env } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { api, expectError, newKey } from '../helpers/api'
import { requestStatus, validSpec } from '../helpers/requests'
import { DAY_MS, dateIn, expiresIn, NEW_YORK } from '../helpers/time'
import { seedVenues } from '../helpers/venues'
import { callTool, listTools, mcpPost, rpc } from '../mcp/mcp-client'
import { API_RESOURCE, connect, MCP_RESOURCE, refresh, tokenRequest } from './oauth-client'

afterEach(() => {
  vi.useRealTimers()
})

async function toolsList(token: string): Promise<number> {
  return (await mcpPost(rpc('tools/list'), { token })).status
}

describe('refresh tokens', () => {
  it('rotate: the new pair works, and the old refresh token dies once the new one is used', async () => {
    const c = await connect()
    const first = await refresh(c.client, c.refreshToken)
    expect(first.status).toBe(200)
    expect(first.body.refresh_token).not.toBe(c.refreshToken)
    expect(first.body.access_token).not.toBe(c.accessToken)
    expect(await toolsList(first.body.access_token)).toBe(200)

    // Using the new refresh token retires the one before it.
    const second = await refresh(c.client, first.body.refresh_token)
    expect(second.status).toBe(200)
    const reused = await refresh(c.client, c.refreshToken)
    expect(reused.status).toBe(400)
    expect(reused.body.error).toBe('invalid_grant')
  })

  it('belong to the client they were issued to', async () => {
    const c = await connect()
    const other = await connect()
    const stolen = await refresh(other.client, c.refreshToken)
    expect(stolen.status).toBe(400)
    expect(stolen.body.error).toBe('invalid_grant')
  })
})

describe('access token lifetime', () => {
  it('ends after 15 minutes; a refresh then gives a working token', async () => {
    const c = await connect()
    expect(await toolsList(c.accessToken)).toBe(200)
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 15 * 60_000 + 1_000)

    const expired = await mcpPost(rpc('tools/list'), { token: c.accessToken })
    expect(expired.status).toBe(401)
    expect(expired.headers.get('WWW-Authenticate')).toContain('error="invalid_token"')

    const renewed = await refresh(c.client, c.refreshToken)
    expect(renewed.status).toBe(200)
    expect(await toolsList(renewed.body.access_token)).toBe(200)
  })
})

describe('the grant', () => {
  it('ends 30 days after consent: a request may not outlive it (grant_expires_first)', async () => {
    await seedVenues()
    const c = await connect()
    const spec = validSpec({ dates: [dateIn(NEW_YORK, 45)], expires_at: expiresIn(31 * DAY_MS) })
    const created = await callTool(c.accessToken, 'svc_create_request', { spec, idempotency_key: newKey() })
    expect(created.error?.code).toBe('grant_expires_first')
  })

  it('cannot be refreshed past its 30 days, however often it was refreshed before', async () => {
    const c = await connect()
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 20 * DAY_MS)
    const midway = await refresh(c.client, c.refreshToken)
    expect(midway.status).toBe(200)
    vi.setSystemTime(Date.now() + 10 * DAY_MS + 60_000)
    const late = await refresh(c.client, midway.body.refresh_token)
    expect(late.status).toBe(400)
    expect(late.body.error).toBe('invalid_grant')
  })
})

describe('revocation', () => {
  it('of the refresh token (RFC 7009) ends the grant, its tokens and the requests made through it', async () => {
    await seedVenues()
    const c = await connect()
    const created = await callTool(c.accessToken, 'svc_create_request', { spec: validSpec(), idempotency_key: newKey() })
    expect(created.structured?.status).toBe('active')

    const revoked = await tokenRequest({ token: c.refreshToken, token_type_hint: 'refresh_token', client_id: c.client.client_id })
    expect(revoked.status).toBe(200)

    expect(await toolsList(c.accessToken)).toBe(401)
    expect((await refresh(c.client, c.refreshToken)).status).toBe(400)
    expect(await requestStatus(String(created.structured?.id))).toBe('revoked')
  })

  it('of the access token alone leaves the grant able to refresh', async () => {
    const c = await connect()
    const revoked = await tokenRequest({ token: c.accessToken, client_id: c.client.client_id })
    expect(revoked.status).toBe(200)
    expect(await toolsList(c.accessToken)).toBe(401)
    expect((await refresh(c.client, c.refreshToken)).status).toBe(200)
  })
})

describe('scopes of an OAuth grant on /mcp', () => {
  it('a tool needing a scope the user did not grant is unlisted, and calling it asks for step-up with HTTP 403', async () => {
    await seedVenues()
    const c = await connect({ scopes: ['restaurants:read'] })
    expect(c.scope.split(' ').sort()).toEqual(['requests:read', 'restaurants:read'])
    expect((await listTools(c.accessToken)).map((t) => t.name)).not.toContain('svc_create_request')
    const create = await mcpPost(
      rpc('tools/call', { name: 'svc_create_request', arguments: { spec: validSpec(), idempotency_key: newKey() } }),
      {
        token: c.accessToken,
      },
    )
    expect(create.status).toBe(403)
    const scope = /error="insufficient_scope", scope="([^"]*)"/.exec(create.headers.get('WWW-Authenticate') ?? '')?.[1]
    expect(scope?.split(' ').sort()).toEqual(['requests:read', 'requests:write', 'restaurants:read'])
    expect((await callTool(c.accessToken, 'svc_find_restaurants', { q: 'Lilac' })).isError).toBe(false)
  })
})

describe('OAuth tokens on /api/v1', () => {
  it('work for a grant issued for /api/v1, with the same scope rules as personal access tokens', async () => {
    await seedVenues()
    const c = await connect({ resource: API_RESOURCE, scopes: ['restaurants:read', 'requests:read'] })
    expect((await api('/requests', { token: c.accessToken })).status).toBe(200)
    expect((await api('/restaurants?q=Lilac', { token: c.accessToken })).status).toBe(200)

    const write = await api('/requests', { method: 'POST', token: c.accessToken, body: validSpec(), idempotencyKey: newKey() })
    expectError(write, 403, 'insufficient_scope')
    expect(write.headers.get('WWW-Authenticate')).toContain('scope="requests:write"')
  })

  it("never reach another user's request", async () => {
    await seedVenues()
    const owner = await connect({ resource: API_RESOURCE })
    const created = await api('/requests', { method: 'POST', token: owner.accessToken, body: validSpec(), idempotencyKey: newKey() })
    const stranger = await connect({ resource: API_RESOURCE })
    expectError(await api(`/requests/${String(created.body.id)}`, { token: stranger.accessToken }), 404, 'request_not_found')
    expectError(
      await api(`/requests/${String(created.body.id)}/stop`, { method: 'POST', token: stranger.accessToken }),
      404,
      'request_not_found',
    )
  })

  it('are refused where their audience does not point', async () => {
    const forMcp = await connect({ resource: MCP_RESOURCE })
    expectError(await api('/requests', { token: forMcp.accessToken }), 401, 'unauthorized')

    const forApi = await connect({ resource: API_RESOURCE })
    expect(await toolsList(forApi.accessToken)).toBe(401)
  })

  it('created requests belong to the connection: the user sees them, another connection of theirs (the /mcp resource) does not', async () => {
    await seedVenues()
    const c = await connect({ resource: API_RESOURCE })
    const created = await api('/requests', { method: 'POST', token: c.accessToken, body: validSpec(), idempotencyKey: newKey() })
    expect(created.status).toBe(201)
    const id = String(created.body.id)
    expect((await api(`/requests/${id}`, { token: c.accessToken })).status).toBe(200)

    const sameUserOtherGrant = await connect({ resource: MCP_RESOURCE, browser: { web: c.web, userId: c.userId } })
    const seen = await callTool(sameUserOtherGrant.accessToken, 'svc_get_request', { request_id: id })
    expect(seen.error?.code).toBe('request_not_found')
    const owner = await env.DB.prepare('select principal_id from requests where id = ?').bind(id).first<{ principal_id: string }>()
    expect(owner?.principal_id).toMatch(/^conn_/)
  })
})
