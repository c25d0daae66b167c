// Parallel refreshes with one refresh token have exactly one winner; the others get `invalid_grant`
// and the grant lives on (a client whose two tabs refreshed at once is not a thief). A network delivers requests sent at once tens to hundreds of
// ms apart, often after the first one's answer is out: before every refresh of a grant ran in the
// grant's Durable Object, the D1 claim stopped only those that arrived while the first ran, and of
// 8 refreshes sent 25 ms apart two got tokens and the replay rule then killed the grant under
// both (in a running service, all 8 got 200: the grant's deletion was written back by a refresh).
import { describe, expect, it } from 'vitest'
import type { JsonBody } from '../helpers/json'
import { mcpPost, rpc } from '../mcp/mcp-client'
import { type Connection, connect, refresh, register } from './oauth-client'

type Answer = { status: number; body: JsonBody }

/** `count` refreshes with one token, all in flight together, the i-th sent `i × spacingMs` after the first. */
function refreshesAtOnce(c: Connection, count: number, spacingMs: number): Promise<Answer[]> {
  const sentAfter = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
  return Promise.all(Array.from({ length: count }, (_, i) => sentAfter(i * spacingMs).then(() => refresh(c.client, c.refreshToken))))
}

const toolsListStatus = async (accessToken: string) => (await mcpPost(rpc('tools/list'), { token: accessToken })).status

/** Exactly one 200; every other answer `invalid_grant`; the winner's tokens work, and its refresh token refreshes. */
async function expectOneWinner(c: Connection, answers: Answer[]): Promise<void> {
  const winners = answers.filter((a) => a.status === 200)
  expect(winners).toHaveLength(1)
  expect(answers.filter((a) => a.status !== 200).map((a) => [a.status, a.body.error])).toEqual(
    Array.from({ length: answers.length - 1 }, () => [400, 'invalid_grant']),
  )
  const won = winners[0]?.body ?? {}
  expect(await toolsListStatus(String(won.access_token))).toBe(200)
  const next = await refresh(c.client, String(won.refresh_token))
  expect(next.status).toBe(200)
  expect(await toolsListStatus(String(next.body.access_token))).toBe(200)
}

describe('parallel refreshes with one refresh token', () => {
  it('8 sent at the same instant: exactly one winner, the others get invalid_grant, the winner’s tokens keep working', async () => {
    const c = await connect()
    await expectOneWinner(c, await refreshesAtOnce(c, 8, 0))
  })

  it('8 sent 25 ms apart, as a network delivers them (some after the first was answered): still exactly one winner', async () => {
    const c = await connect()
    await expectOneWinner(c, await refreshesAtOnce(c, 8, 25))
  })

  it('8 with a token from a refresh (not the code exchange): exactly one winner', async () => {
    const first = await connect()
    const rotated = await refresh(first.client, first.refreshToken)
    expect(rotated.status).toBe(200)
    const c = { ...first, refreshToken: String(rotated.body.refresh_token) }
    await expectOneWinner(c, await refreshesAtOnce(c, 8, 10))
  })

  it('a refresh the library refused frees the token: the client’s own refresh then succeeds', async () => {
    const c = await connect()
    const other = await register()
    const refused = await refresh(other, c.refreshToken)
    expect(refused.status).toBe(400)
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
