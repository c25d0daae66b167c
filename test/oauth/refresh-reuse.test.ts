// Refresh-token reuse detection (RFC 9700, section 4.14.2). The token before the newest gets,
// for 30 s after its rotation, the answer that rotation issued (the same token pair: a duplicate
// or a retry, test/oauth/parallel-refresh.test.ts), never a second branch of the grant; any other
// stale token ends the grant, its tokens and its requests. A stale token replayed inside the
// window therefore never takes the grant over: the device keeps refreshing, and its revocation
// ends the grant for whoever holds a copy.
import { env } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { newKey } from '../helpers/api'
import { validSpec } from '../helpers/requests'
import { seedVenues } from '../helpers/venues'
import { callTool, mcpPost, rpc } from '../mcp/mcp-client'
import { type Connection, connect, refresh, register, tokenRequest } from './oauth-client'

afterEach(() => {
  vi.useRealTimers()
})

/** Moves the clock (of the worker and the grant's object) `ms` ahead. */
function later(ms: number): void {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(Date.now() + ms)
}

async function requestStatus(id: string): Promise<string | undefined> {
  const row = await env.DB.prepare('select status from requests where id = ?').bind(id).first<{ status: string }>()
  return row?.status
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
  it('the previous token, replayed 31 s after its rotation (past the window), ends the grant', async () => {
    const { c, requestId } = await connectedWithRequest()
    const newest = await rotate(c, c.refreshToken)
    later(31_000)
    const replay = await refresh(c.client, c.refreshToken)
    expect(replay.status).toBe(400)
    expect(replay.body.error).toBe('invalid_grant')
    await expectGrantEnded(c, newest, requestId)
  })

  it.each([0, 11_000, 29_000])(
    'the previous token, %i ms after its rotation, gets the pair that rotation issued, any number of times, and the grant lives on',
    async (after) => {
      const { c, requestId } = await connectedWithRequest()
      const newest = await rotate(c, c.refreshToken)
      later(after)
      for (let i = 0; i < 3; i++) expect(await rotate(c, c.refreshToken)).toEqual(newest)
      expect((await mcpPost(rpc('tools/list'), { token: newest.accessToken })).status).toBe(200)
      const next = await rotate(c, newest.refreshToken)
      expect((await mcpPost(rpc('tools/list'), { token: next.accessToken })).status).toBe(200)
      expect(await requestStatus(requestId)).toBe('active')
    },
  )

  it('a stale token replayed 15 s after rotation takes nothing over: the device keeps refreshing, and its revocation ends the grant for both', async () => {
    const { c, requestId } = await connectedWithRequest()
    const device = await rotate(c, c.refreshToken)
    later(15_000)
    const replayer = await rotate(c, c.refreshToken)
    // No second branch: the replayer holds the device's own pair, not one of its own.
    expect(replayer).toEqual(device)
    const deviceNext = await rotate(c, device.refreshToken)
    expect((await mcpPost(rpc('tools/list'), { token: deviceNext.accessToken })).status).toBe(200)
    const revoked = await tokenRequest({ token: deviceNext.refreshToken, token_type_hint: 'refresh_token', client_id: c.client.client_id })
    expect(revoked.status).toBe(200)
    for (const accessToken of [replayer.accessToken, deviceNext.accessToken])
      expect((await mcpPost(rpc('tools/list'), { token: accessToken })).status).toBe(401)
    expect((await refresh(c.client, replayer.refreshToken)).status).toBe(400)
    expect(await requestStatus(requestId)).toBe('revoked')
  })

  it('revoking any refresh token the grant issued, even one the library has forgotten, ends the grant and its requests', async () => {
    const { c, requestId } = await connectedWithRequest()
    const second = await rotate(c, c.refreshToken)
    const third = await rotate(c, second.refreshToken)
    // Two rotations on, the library no longer knows the first token; the service's record does.
    const revoked = await tokenRequest({ token: c.refreshToken, client_id: c.client.client_id })
    expect(revoked.status).toBe(200)
    await expectGrantEnded(c, third, requestId)
  })

  it('a refresh the library refuses for a recorded token of the live grant (it forgot the token) counts as reuse: the grant ends', async () => {
    const { c, requestId } = await connectedWithRequest()
    // The library's record of the grant as the takeover left it: the device's token is no longer its current or previous one.
    const [userId, grantId] = c.refreshToken.split(':')
    const key = `grant:${userId}:${grantId}`
    const grant = await env.OAUTH_KV.get<Record<string, unknown>>(key, 'json')
    await env.OAUTH_KV.put(key, JSON.stringify({ ...grant, refreshTokenId: 'forgotten', previousRefreshTokenId: 'forgotten too' }))
    const refused = await refresh(c.client, c.refreshToken)
    expect([refused.status, refused.body.error]).toEqual([400, 'invalid_grant'])
    await expectGrantEnded(c, { refreshToken: c.refreshToken, accessToken: c.accessToken }, requestId)
  })

  it('another client presenting the token is refused and changes nothing', async () => {
    const { c, requestId } = await connectedWithRequest()
    const refused = await refresh(await register(), c.refreshToken)
    expect([refused.status, refused.body.error]).toEqual([400, 'invalid_grant'])
    expect((await rotate(c, c.refreshToken)).refreshToken).not.toBe(c.refreshToken)
    expect(await requestStatus(requestId)).toBe('active')
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
