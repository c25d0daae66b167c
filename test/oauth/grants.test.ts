// OAuth-connected assistants on the assistants page: listed, and disconnected with their
// tokens and the requests they created.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { oauthApi } from '../../src/auth/oauth'
import { newKey } from '../helpers/api'
import { requestStatus, validSpec } from '../helpers/requests'
import { DAY_MS } from '../helpers/time'
import { seedVenues } from '../helpers/venues'
import { callTool, mcpPost, rpc } from '../mcp/mcp-client'
import { connect, refresh } from './oauth-client'

function grantIdsOn(html: string): string[] {
  return [...html.matchAll(/href="\/assistants\/grants\/([^/"]+)\/revoke"/g)].map((m) => decodeURIComponent(m[1] ?? ''))
}

describe('connected assistants on the assistants page', () => {
  it('lists each grant with the client name, its scopes and when it ends', async () => {
    const before = Date.now()
    const c = await connect({ scopes: ['requests:read', 'restaurants:read'] })
    const html = await (await c.web.get('/assistants')).text()
    const section = html.slice(html.indexOf('id="connected-assistants"'))
    expect(section).toContain('Test Assistant')
    expect(section).toContain('requests:read')
    expect(section).toContain('restaurants:read')
    expect(section).not.toContain('requests:write')
    expect(grantIdsOn(html)).toHaveLength(1)

    const grants = await oauthApi(env).listUserGrants(c.userId)
    const ends = (grants.items[0]?.expiresAt ?? 0) * 1000
    expect(ends).toBeGreaterThanOrEqual(before + 30 * DAY_MS - 60_000)
    expect(ends).toBeLessThanOrEqual(Date.now() + 30 * DAY_MS + 60_000)
  })

  it('disconnecting ends the grant, its tokens, and moves its requests to revoked', async () => {
    await seedVenues()
    const c = await connect()
    const created = await callTool(c.accessToken, 'svc_create_request', { spec: validSpec(), idempotency_key: newKey() })
    const id = String(created.structured?.id)
    expect(await requestStatus(id)).toBe('active')

    const page = await (await c.web.get('/assistants')).text()
    const [grantId] = grantIdsOn(page)
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page)?.[1] ?? ''
    const res = await c.web.post(`/assistants/grants/${encodeURIComponent(grantId ?? '')}/revoke`, { _csrf: csrf })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/assistants?disconnected=1')

    expect((await mcpPost(rpc('tools/list'), { token: c.accessToken })).status).toBe(401)
    expect((await refresh(c.client, c.refreshToken)).status).toBe(400)
    expect(await requestStatus(id)).toBe('revoked')
    const after = await (await c.web.get('/assistants?disconnected=1')).text()
    expect(grantIdsOn(after)).toHaveLength(0)
    expect(after).toContain('Assistant disconnected.')
  })

  it("cannot disconnect another user's grant", async () => {
    await seedVenues()
    const victim = await connect()
    const created = await callTool(victim.accessToken, 'svc_create_request', { spec: validSpec(), idempotency_key: newKey() })
    const [grantId] = grantIdsOn(await (await victim.web.get('/assistants')).text())

    const attacker = await connect()
    const csrf = await attacker.web.csrfFrom('/assistants')
    const res = await attacker.web.post(`/assistants/grants/${encodeURIComponent(grantId ?? '')}/revoke`, { _csrf: csrf })
    expect(res.status).toBe(404)
    expect(await res.text()).toContain('That connection is not one of yours')

    expect((await mcpPost(rpc('tools/list'), { token: victim.accessToken })).status).toBe(200)
    expect(await requestStatus(String(created.structured?.id))).toBe('active')
  })
})
