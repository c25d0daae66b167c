// The isolation matrix in full for MCP: tokens A1 and A2 of one user and B of another, each
// owning a request and a reservation. Every tool reaching for another token's ids answers the
// same tool error as for an id that never existed, changes nothing, and each token's list
// shows only its own requests.
import { beforeEach, describe, expect, it } from 'vitest'
import { newKey } from '../helpers/api'
import { validSpec } from '../helpers/requests'
import { seedVenues } from '../helpers/venues'
import { mapBounded } from './support/http'
import { expectNoLeaks, watchConsole } from './support/leaks'
import { mcpSend, toolCall } from './support/mcp'
import { type Owned, ownedBy, stateOf } from './support/owned'
import { rowCounts } from './support/tables'
import { secretToken, secretUser } from './support/users'

interface Holder {
  name: string
  token: string
  owned: Owned
}

const REACHES: [string, (theirs: Owned) => Record<string, unknown>, string][] = [
  ['svc_get_request', (o) => ({ request_id: o.requestId }), 'request_not_found'],
  [
    'svc_update_request',
    (o) => ({ request_id: o.requestId, revision: o.revision, spec: validSpec({ title: 'hijacked' }), idempotency_key: newKey() }),
    'request_not_found',
  ],
  ['svc_stop_request', (o) => ({ request_id: o.requestId }), 'request_not_found'],
  ['svc_get_reservation', (o) => ({ reservation_id: o.reservationId }), 'reservation_not_found'],
]

let holders: Holder[]

// Each test builds its own users, tokens and requests, and checks its own transcript for leaks.
beforeEach(async () => {
  watchConsole()
  await seedVenues()
  const a1 = await secretUser()
  const a2 = await secretToken(a1.userId)
  const b = await secretUser()
  holders = []
  for (const [name, token] of [
    ['token A1 of user A', a1.token],
    ['token A2 of user A', a2.token],
    ['token B of user B', b.token],
  ] as const) {
    holders.push({ name, token, owned: await ownedBy(token, { title: `owned by ${name}` }) })
  }
})

describe('the MCP isolation matrix', () => {
  it("answers not_found to every token reaching for another token's request or reservation, changing nothing", async () => {
    const attempts = holders.flatMap((me) =>
      holders
        .filter((them) => them !== me)
        .flatMap((them) =>
          REACHES.map(([tool, args, code]) => ({
            label: `${me.name} → ${them.name}: ${tool}`,
            call: toolCall(me.token, tool, args(them.owned)),
            code,
          })),
        ),
    )
    expect(attempts).toHaveLength(24)
    const before = await rowCounts()
    const states = await Promise.all(holders.map((h) => stateOf(h.token, h.owned.requestId)))
    const outcomes = await mapBounded(attempts, 6, (a) => mcpSend(a.call))
    const got = outcomes.map((o, i) => `${attempts[i]!.label}: ${o.kind === 'tool_error' ? o.error?.code : o.kind}`)
    expect(got).toEqual(attempts.map((a) => `${a.label}: ${a.code}`))
    expect(await rowCounts()).toEqual(before)
    expect(await Promise.all(holders.map((h) => stateOf(h.token, h.owned.requestId)))).toEqual(states)
    expectNoLeaks()
  }, 60_000)

  it('lists for each token exactly the requests it made, and shows it its own reservation', async () => {
    for (const me of holders) {
      const listed = await mcpSend(toolCall(me.token, 'svc_list_requests', {}))
      expect(listed).toMatchObject({ kind: 'success', result: { structuredContent: { requests: [{ id: me.owned.requestId }] } } })
      const reservation = await mcpSend(toolCall(me.token, 'svc_get_reservation', { reservation_id: me.owned.reservationId }))
      expect(reservation).toMatchObject({
        kind: 'success',
        result: { structuredContent: { reservation_id: me.owned.reservationId, request_id: me.owned.requestId } },
      })
    }
    expectNoLeaks()
  })
})
