// The scope matrix in full for REST: the four scopes against every route, with each
// single-scope token and each token missing one scope. A route answers when its scope is held
// and 403 insufficient_scope otherwise, and a refused call changes nothing.
import { beforeEach, describe, expect, it } from 'vitest'
import { API_BASE } from '../../src/api/app'
import { SCOPES, type Scope } from '../../src/core/scopes'
import { OPERATIONS, type OperationName } from '../../src/operations/table'
import { newKey } from '../helpers/api'
import { REST_ENDPOINTS } from '../helpers/operations'
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

/**
 * How to call an operation's route successfully, where the route takes more than a token: a
 * route with no path parameters, no body and no header of its own is called as the table
 * declares it, so an operation like that needs nothing here. Its scope, success status and
 * label come from the table.
 */
const CALLS: Partial<Record<OperationName, (token: string, owned: Owned) => Call>> = {
  find_restaurants: (t) => ({ method: 'GET', path: '/api/v1/restaurants?q=lilac', headers: bearer(t) }),
  preview_request: (t) => ({
    method: 'POST',
    path: '/api/v1/requests/preview',
    headers: jsonHeaders(t),
    body: JSON.stringify(validSpec()),
  }),
  create_request: (t) => ({
    method: 'POST',
    path: '/api/v1/requests',
    headers: jsonHeaders(t, { 'Idempotency-Key': newKey() }),
    body: JSON.stringify(validSpec()),
  }),
  get_request: (t, o) => ({ method: 'GET', path: `/api/v1/requests/${o.requestId}`, headers: bearer(t) }),
  update_request: (t, o) => ({
    method: 'PUT',
    path: `/api/v1/requests/${o.requestId}`,
    headers: jsonHeaders(t, { 'Idempotency-Key': newKey() }),
    body: JSON.stringify({ revision: o.revision, spec: validSpec({ title: 'changed by the matrix' }) }),
  }),
  stop_request: (t, o) => ({ method: 'POST', path: `/api/v1/requests/${o.requestId}/stop`, headers: bearer(t) }),
  get_reservation: (t, o) => ({ method: 'GET', path: `/api/v1/reservations/${o.reservationId}`, headers: bearer(t) }),
}

function callOf(name: OperationName): (token: string, owned: Owned) => Call {
  const listed = CALLS[name]
  if (listed) return listed
  const { method, path, request } = OPERATIONS[name].rest
  if (request.params || request.body || request.headers || request.query?.safeParse({}).success === false) {
    throw new Error(`the route of ${name} takes more than a token: add its call to CALLS`)
  }
  return (token) => ({ method: method.toUpperCase(), path: `${API_BASE}${path}`, headers: bearer(token) })
}

const ROUTES: RouteCase[] = REST_ENDPOINTS.map(([method, path, name]) => ({
  route: `${method.toUpperCase()} ${path}`,
  scope: OPERATIONS[name].scope,
  success: OPERATIONS[name].rest.status,
  call: callOf(name),
}))

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
  it('covers every route of the operation table with 8 tokens, every scope among them', () => {
    expect(ROUTES.map((r) => r.route).sort()).toEqual(
      Object.values(OPERATIONS)
        .map((op) => `${op.rest.method.toUpperCase()} /api/v1${op.rest.path}`)
        .sort(),
    )
    expect(cells).toHaveLength(TOKENS.length * ROUTES.length)
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
    // Each route is denied to the three single-scope tokens of other scopes and to the one token without its own.
    expect(denied.length).toBe(ROUTES.length * SCOPES.length)
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
