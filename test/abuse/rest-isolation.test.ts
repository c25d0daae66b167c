// The isolation matrix in full for REST: three tokens (A1 and A2 of one user, B of another),
// each owning a request and a reservation. Every token reaching for another's ids gets the same
// 404 as for an id that never existed, changes nothing, and lists only its own requests.
import { beforeEach, describe, expect, it } from 'vitest'
import { newKey } from '../helpers/api'
import { validSpec } from '../helpers/requests'
import { seedVenues } from '../helpers/venues'
import { code, type Refusal, refusalProblem } from './support/contract'
import { bearer, type Call, jsonHeaders, mapBounded, send } from './support/http'
import { expectNoLeaks, watchConsole } from './support/leaks'
import { type Owned, ownedBy, stateOf } from './support/owned'
import { rowCounts } from './support/tables'
import { secretToken, secretUser } from './support/users'

interface Holder {
  name: string
  token: string
  owned: Owned
}

const REACHES: [string, (token: string, theirs: Owned) => Call, Refusal][] = [
  [
    'GET /requests/{id}',
    (t, o) => ({ method: 'GET', path: `/api/v1/requests/${o.requestId}`, headers: bearer(t) }),
    code('request_not_found', 404),
  ],
  [
    'PUT /requests/{id}',
    (t, o) => ({
      method: 'PUT',
      path: `/api/v1/requests/${o.requestId}`,
      headers: jsonHeaders(t, { 'Idempotency-Key': newKey() }),
      body: JSON.stringify({ revision: o.revision, spec: validSpec({ title: 'hijacked' }) }),
    }),
    code('request_not_found', 404),
  ],
  [
    'POST /requests/{id}/stop',
    (t, o) => ({ method: 'POST', path: `/api/v1/requests/${o.requestId}/stop`, headers: bearer(t) }),
    code('request_not_found', 404),
  ],
  [
    'GET /reservations/{id}',
    (t, o) => ({ method: 'GET', path: `/api/v1/reservations/${o.reservationId}`, headers: bearer(t) }),
    code('reservation_not_found', 404),
  ],
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

describe('the REST isolation matrix', () => {
  it("answers 404 to every token reaching for another token's request or reservation, changing nothing", async () => {
    const attempts = holders.flatMap((me) =>
      holders
        .filter((them) => them !== me)
        .flatMap((them) =>
          REACHES.map(([route, call, want]) => ({ label: `${me.name} → ${them.name}: ${route}`, call: call(me.token, them.owned), want })),
        ),
    )
    expect(attempts).toHaveLength(6 * REACHES.length)
    const before = await rowCounts()
    const states = await Promise.all(holders.map((h) => stateOf(h.token, h.owned.requestId)))
    const answers = await mapBounded(attempts, 6, (a) => send(a.call))
    const problems = attempts.flatMap((a, i) => {
      const problem = refusalProblem(answers[i]!.status, answers[i]!.json, a.want)
      return problem ? [`${a.label}: ${problem}`] : []
    })
    expect(problems).toEqual([])
    expect(await rowCounts()).toEqual(before)
    expect(await Promise.all(holders.map((h) => stateOf(h.token, h.owned.requestId)))).toEqual(states)
    expectNoLeaks()
  }, 60_000)

  it('lists for each token exactly the requests it made, and shows it its own reservation', async () => {
    for (const me of holders) {
      const listed = await send({ method: 'GET', path: '/api/v1/requests', headers: bearer(me.token) })
      expect(listed.status).toBe(200)
      expect(listed.json).toMatchObject({ requests: [{ id: me.owned.requestId }] })
      const reservation = await send({ method: 'GET', path: `/api/v1/reservations/${me.owned.reservationId}`, headers: bearer(me.token) })
      expect(reservation.status).toBe(200)
      expect(reservation.json).toMatchObject({ reservation_id: me.owned.reservationId, request_id: me.owned.requestId })
    }
    expectNoLeaks()
  })
})
