// Issue 27, item 5: a refresh is a claim. Parallel refreshes with the grant's newest refresh
// token have exactly one winner; the others get `invalid_grant` and the grant lives on (a client
// whose two tabs refreshed at once is not a thief). Before the claim all four succeeded.
import { describe, expect, it } from 'vitest'
import { mcpPost, rpc } from '../mcp/mcp-client'
import { connect, refresh, register } from './oauth-client'

describe('parallel refreshes with the newest refresh token', () => {
  it('have exactly one winner; the others get invalid_grant and the winner’s tokens keep working', async () => {
    const c = await connect()
    const answers = await Promise.all(Array.from({ length: 4 }, () => refresh(c.client, c.refreshToken)))
    const winners = answers.filter((a) => a.status === 200)
    const losers = answers.filter((a) => a.status !== 200)
    expect(winners).toHaveLength(1)
    expect(losers.map((a) => [a.status, a.body.error])).toEqual([
      [400, 'invalid_grant'],
      [400, 'invalid_grant'],
      [400, 'invalid_grant'],
    ])
    const won = winners[0]?.body ?? {}
    expect((await mcpPost(rpc('tools/list'), { token: String(won.access_token) })).status).toBe(200)
    const next = await refresh(c.client, String(won.refresh_token))
    expect(next.status).toBe(200)
    expect((await mcpPost(rpc('tools/list'), { token: String(next.body.access_token) })).status).toBe(200)
  })

  it('a refresh the library refused frees the token: the client’s own refresh then succeeds', async () => {
    const c = await connect()
    const other = await register()
    const refused = await refresh(other, c.refreshToken)
    expect(refused.status).toBe(400)
    const own = await refresh(c.client, c.refreshToken)
    expect(own.status).toBe(200)
  })
})
