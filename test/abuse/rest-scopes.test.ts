// The scope matrix in full for REST: the four scopes against every route, with each
// single-scope token and each token missing one scope. A route answers when its scope is held
// and 403 insufficient_scope otherwise, and a refused call changes nothing.
import { beforeEach, describe, expect, it } from 'vitest'
import { SCOPES, type Scope } from '../../src/core/scopes'
import { newKey } from '../helpers/api'
import { validSpec } from '../helpers/requests'
import { seedVenues } from '../helpers/venues'
import { code, refusalProblem } from './support/contract'
import { bearer, type Call, jsonHeaders, mapBounded, send } from './support/http'
import { expectNoLeaks, watchConsole } from './support/leaks'
import { type Owned, ownedBy, stateOf } from './support/owned'
import { rowCounts } from './support/tables'
import { secretUser } from './support/users'

interface RouteCase {
  route: string
  scope: Scope
  success: number
  call: (token: string, owned: Owned) => Call
}

const put = (token: string, owned: Owned): Call => ({
  method: 'PUT',
  path: `/api/v1/requests/${owned.requestId}`,
  headers: jsonHeaders(token, { 'Idempotency-Key': newKey() }),
  body: JSON.stringify({ revision: owned.revision, spec: validSpec({ title: 'changed by the matrix' }) }),
})

const ROUTES: RouteCase[] = [
  {
    route: 'GET /capabilities',
    scope: 'requests:read',
    success: 200,
    call: (t) => ({ method: 'GET', path: '/api/v1/capabilities', headers: bearer(t) }),
  },
  {
    route: 'GET /restaurants',
    scope: 'restaurants:read',
    success: 200,
    call: (t) => ({ method: 'GET', path: '/api/v1/restaurants?q=lilac', headers: bearer(t) }),
  },
  {
    route: 'POST /requests/preview',
    scope: 'requests:read',
    success: 200,
    call: (t) => ({ method: 'POST', path: '/api/v1/requests/preview', headers: jsonHeaders(t), body: JSON.stringify(validSpec()) }),
  },
  {
    route: 'POST /requests',
    scope: 'requests:write',
    success: 201,
    call: (t) => ({
      method: 'POST',
      path: '/api/v1/requests',
      headers: jsonHeaders(t, { 'Idempotency-Key': newKey() }),
      body: JSON.stringify(validSpec()),
    }),
  },
  {
    route: 'GET /requests',
    scope: 'requests:read',
    success: 200,
    call: (t) => ({ method: 'GET', path: '/api/v1/requests', headers: bearer(t) }),
  },
  {
    route: 'GET /requests/{id}',
    scope: 'requests:read',
    success: 200,
    call: (t, o) => ({ method: 'GET', path: `/api/v1/requests/${o.requestId}`, headers: bearer(t) }),
  },
  { route: 'PUT /requests/{id}', scope: 'requests:write', success: 200, call: put },
  {
    route: 'POST /requests/{id}/stop',
    scope: 'requests:write',
    success: 200,
    call: (t, o) => ({ method: 'POST', path: `/api/v1/requests/${o.requestId}/stop`, headers: bearer(t) }),
  },
  {
    route: 'GET /reservations/{id}',
    scope: 'reservations:read',
    success: 200,
    call: (t, o) => ({ method: 'GET', path: `/api/v1/reservations/${o.reservationId}`, headers: bearer(t) }),
  },
]

/** Each single-scope token and each token missing exactly one scope: eight rows. */
const TOKENS: [string, Scope[]][] = [
  ...SCOPES.map((s): [string, Scope[]] => [`only ${s}`, [s]]),
  ...SCOPES.map((s): [string, Scope[]] => [`all but ${s}`, SCOPES.filter((o) => o !== s)]),
]

interface Cell {
  row: string
  route: RouteCase
  allowed: boolean
  token: string
  owned: Owned
}

let cells: Cell[]

// Each test builds its own users, tokens and requests, and checks its own transcript for leaks.
beforeEach(async () => {
  watchConsole()
  await seedVenues()
  cells = []
  for (const [row, scopes] of TOKENS) {
    const { token } = await secretUser({ scopes })
    for (const route of ROUTES) {
      // Routes that change a request get their own, so one cell never depends on another.
      const owned = await ownedBy(token, { title: `${row} ${route.route}` })
      cells.push({ row, route, allowed: scopes.includes(route.scope), token, owned })
    }
  }
})

describe('the REST scope matrix', () => {
  it('covers 4 scopes × 9 routes × 8 tokens', () => {
    expect(cells).toHaveLength(8 * ROUTES.length)
    expect(new Set(cells.map((c) => c.route.scope))).toEqual(new Set(SCOPES))
    expectNoLeaks()
  })

  it('refuses every route whose scope the token lacks with 403 insufficient_scope naming it, changing nothing', async () => {
    const denied = cells.filter((c) => !c.allowed)
    const before = await rowCounts()
    const states = await Promise.all(denied.map((c) => stateOf(c.token, c.owned.requestId)))
    const answers = await mapBounded(denied, 6, (c) => send(c.route.call(c.token, c.owned)))
    const problems = denied.flatMap((c, i) => {
      const a = answers[i]!
      const problem = refusalProblem(a.status, a.json, code('insufficient_scope', 403))
      const challenge = a.headers.get('WWW-Authenticate') ?? ''
      const named = challenge.includes('error="insufficient_scope"') && challenge.includes(`scope="${c.route.scope}"`)
      return problem || !named ? [`${c.row} × ${c.route.route}: ${problem ?? `challenge ${challenge}`}`] : []
    })
    expect(problems).toEqual([])
    expect(denied.length).toBe(36)
    expect(await rowCounts()).toEqual(before)
    expect(await Promise.all(denied.map((c) => stateOf(c.token, c.owned.requestId)))).toEqual(states)
    expectNoLeaks()
  }, 60_000)

  it('answers every route whose scope the token holds', async () => {
    const allowed = cells.filter((c) => c.allowed)
    const answers = await mapBounded(allowed, 6, (c) => send(c.route.call(c.token, c.owned)))
    expect(allowed.map((c, i) => `${c.row} × ${c.route.route}: ${answers[i]!.status}`)).toEqual(
      allowed.map((c) => `${c.row} × ${c.route.route}: ${c.route.success}`),
    )
    expectNoLeaks()
  }, 60_000)
})
