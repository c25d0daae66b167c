// Refresh-token reuse detection (RFC 9700, section 4.14.2). The token before the newest
// is refused without harm for 10 s (a request sent alongside the one that rotated it:
// test/oauth/parallel-refresh.test.ts), then works once until 30 s; any other stale token ends
// the grant, its tokens and its requests.
import { env } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { newKey } from '../helpers/api'
import { requestStatus, validSpec } from '../helpers/requests'
import { seedVenues } from '../helpers/venues'
import { callTool, mcpPost, rpc } from '../mcp/mcp-client'
import { type Connection, connect, refresh } from './oauth-client'

afterEach(() => {
  vi.useRealTimers()
})

/** Moves the clock (of the worker and the grant's object) `ms` ahead. */
function later(ms: number): void {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(Date.now() + ms)
}

async function rotate(c: Connection, token: string): Promise<{ refreshToken: string; accessToken: string }> {
  const answer = await refresh(c.client, token)
  expect(answer.status).toBe(200)
  return { refreshToken: String(answer.body.refresh_token), accessToken: String(answer.body.access_token) }
}

/** The grant is over: no token of it refreshes or reaches /mcp, and its request is revoked. */
async function expectGrantEnded(c: Connection, newest: { refreshToken: string; accessToken: string }, requestId: string) {
  expect((await refresh(c.client, newest.refreshToken)).status).toBe(400)
  expect((await mcpPost(rpc('tools/list'), { token: newest.accessToken })).status).toBe(401)
  expect(await requestStatus(requestId)).toBe('revoked')
}

async function connectedWithRequest() {
  await seedVenues()
  const c = await connect()
  const created = await callTool(c.accessToken, 'svc_create_request', { spec: validSpec(), idempotency_key: newKey() })
  return { c, requestId: String(created.structured?.id) }
}

describe('refresh-token reuse', () => {
  it('the previous token, replayed after the grace period, ends the grant', async () => {
    const { c, requestId } = await connectedWithRequest()
    const newest = await rotate(c, c.refreshToken)
    later(31_000)
    const replay = await refresh(c.client, c.refreshToken)
    expect(replay.status).toBe(400)
    expect(replay.body.error).toBe('invalid_grant')
    await expectGrantEnded(c, newest, requestId)
  })

  it('the previous token, within 10 s of its rotation, is refused and the grant lives on (it was sent alongside)', async () => {
    const { c, requestId } = await connectedWithRequest()
    const newest = await rotate(c, c.refreshToken)
    for (let i = 0; i < 3; i++) {
      const alongside = await refresh(c.client, c.refreshToken)
      expect([alongside.status, alongside.body.error]).toEqual([400, 'invalid_grant'])
    }
    expect((await mcpPost(rpc('tools/list'), { token: newest.accessToken })).status).toBe(200)
    const next = await rotate(c, newest.refreshToken)
    expect((await mcpPost(rpc('tools/list'), { token: next.accessToken })).status).toBe(200)
    expect(await requestStatus(requestId)).toBe('active')
  })

  it('the previous token works once after 10 s and within the grace period (a retry after a lost answer), and the grant lives on', async () => {
    const { c, requestId } = await connectedWithRequest()
    await rotate(c, c.refreshToken)
    later(11_000)
    const retried = await rotate(c, c.refreshToken)
    expect((await mcpPost(rpc('tools/list'), { token: retried.accessToken })).status).toBe(200)
    const next = await rotate(c, retried.refreshToken)
    expect((await mcpPost(rpc('tools/list'), { token: next.accessToken })).status).toBe(200)
    expect(await requestStatus(requestId)).toBe('active')
  })

  it('the previous token a second time, even within the grace period, ends the grant', async () => {
    const { c, requestId } = await connectedWithRequest()
    await rotate(c, c.refreshToken)
    later(11_000)
    const retried = await rotate(c, c.refreshToken)
    const again = await refresh(c.client, c.refreshToken)
    expect(again.status).toBe(400)
    await expectGrantEnded(c, retried, requestId)
  })

  it('a token two rotations old ends the grant', async () => {
    const { c, requestId } = await connectedWithRequest()
    const second = await rotate(c, c.refreshToken)
    const third = await rotate(c, second.refreshToken)
    const stale = await refresh(c.client, c.refreshToken)
    expect(stale.status).toBe(400)
    await expectGrantEnded(c, third, requestId)
  })

  it('the newest token keeps working across many rotations', async () => {
    const { c, requestId } = await connectedWithRequest()
    let tokens = { refreshToken: c.refreshToken, accessToken: c.accessToken }
    for (let i = 0; i < 4; i++) tokens = await rotate(c, tokens.refreshToken)
    expect((await mcpPost(rpc('tools/list'), { token: tokens.accessToken })).status).toBe(200)
    expect(await requestStatus(requestId)).toBe('active')
  })

  it('stores only hashes of refresh tokens', async () => {
    const { c } = await connectedWithRequest()
    const rows = await env.DB.prepare('select * from oauth_refresh_tokens').all()
    expect(JSON.stringify(rows.results)).not.toContain(c.refreshToken.split(':')[2])
  })
})
