// Parallel refreshes with one refresh token, as a host sends them when several tool calls found
// its access token expired: every one gets the same token pair (the answer of the one rotation
// they duplicate), the pair works, and its refresh token refreshes. Before, one won and the rest
// got `invalid_grant`, and SDK 1.x hosts then wiped the fresh tokens and asked for consent again.
// A network delivers requests sent at once tens to hundreds of ms apart, often after the first
// one's answer is out: every refresh of a grant runs in the grant's Durable Object, one at a time.
import { describe, expect, it } from 'vitest'
import type { JsonBody } from '../helpers/json'
import { mcpPost, rpc } from '../mcp/mcp-client'
import { type Connection, connect, refresh, tokenRequest } from './oauth-client'

type Answer = { status: number; body: JsonBody }

/** `count` refreshes with one token, all in flight together, the i-th sent `i × spacingMs` after the first. */
function refreshesAtOnce(c: Connection, count: number, spacingMs: number): Promise<Answer[]> {
  const sentAfter = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
  return Promise.all(Array.from({ length: count }, (_, i) => sentAfter(i * spacingMs).then(() => refresh(c.client, c.refreshToken))))
}

const toolsListStatus = async (accessToken: string) => (await mcpPost(rpc('tools/list'), { token: accessToken })).status

/** Every answer 200 with one and the same token pair; the pair works, and its refresh token refreshes. */
async function expectSamePair(c: Connection, answers: Answer[]): Promise<void> {
  expect(answers.map((a) => [a.status, a.body.error])).toEqual(answers.map(() => [200, undefined]))
  const pairs = new Set(answers.map((a) => `${a.body.access_token} ${a.body.refresh_token}`))
  expect(pairs.size).toBe(1)
  const pair = answers[0]?.body ?? {}
  expect(pair.refresh_token).not.toBe(c.refreshToken)
  expect(await toolsListStatus(String(pair.access_token))).toBe(200)
  const next = await refresh(c.client, String(pair.refresh_token))
  expect(next.status).toBe(200)
  expect(await toolsListStatus(String(next.body.access_token))).toBe(200)
}

describe('parallel refreshes with one refresh token', () => {
  it.each([4, 16])(
    '%i sent at the same instant (Promise.all) from one client: all get the same token pair, and it works',
    async (count) => {
      const c = await connect()
      await expectSamePair(c, await refreshesAtOnce(c, count, 0))
    },
  )

  it('8 sent 25 ms apart, as a network delivers them (some after the first was answered): still one pair for all', async () => {
    const c = await connect()
    await expectSamePair(c, await refreshesAtOnce(c, 8, 25))
  })

  it('8 with a token from a refresh (not the code exchange): one pair for all', async () => {
    const first = await connect()
    const rotated = await refresh(first.client, first.refreshToken)
    expect(rotated.status).toBe(200)
    const c = { ...first, refreshToken: String(rotated.body.refresh_token) }
    await expectSamePair(c, await refreshesAtOnce(c, 8, 10))
  })

  it('a refresh the library refused for a bad request (a scope never granted) frees the token: the client’s own refresh then succeeds', async () => {
    const c = await connect({ scopes: ['requests:read'] })
    const refused = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: c.refreshToken,
      client_id: c.client.client_id,
      scope: 'reservations:read',
    })
    expect([refused.status, refused.body.error]).toEqual([400, 'invalid_scope'])
    const own = await refresh(c.client, c.refreshToken)
    expect(own.status).toBe(200)
  })

  it('a disconnect while refreshes run ends the grant for good: no token of it works afterwards', async () => {
    const c = await connect()
    const grantId = c.refreshToken.split(':')[1] ?? ''
    const csrf = await c.web.csrfFrom('/assistants')
    const [answers, disconnected] = await Promise.all([
      refreshesAtOnce(c, 8, 10),
      new Promise((resolve) => setTimeout(resolve, 15)).then(() => c.web.post(`/assistants/grants/${grantId}/revoke`, { _csrf: csrf })),
    ])
    expect(disconnected.status).toBe(303)
    for (const answer of answers.filter((a) => a.status === 200)) {
      expect(await toolsListStatus(String(answer.body.access_token))).toBe(401)
      expect((await refresh(c.client, String(answer.body.refresh_token))).status).toBe(400)
    }
    expect((await refresh(c.client, c.refreshToken)).status).toBe(400)
  })
})
