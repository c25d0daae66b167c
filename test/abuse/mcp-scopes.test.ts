// The scope matrix in full for MCP: the four scopes against every tool, with each single-scope
// token and each token missing one scope. Without requests:read there is no MCP connection at
// all (HTTP 403 insufficient_scope); with it, a tool answers when its scope is held, and a call
// of a tool whose scope is missing is HTTP 403 too, with the Bearer challenge naming that scope
// (so an OAuth host starts step-up authorization), changing nothing.
import { beforeEach, describe, expect, it } from 'vitest'
import { SCOPES, type Scope } from '../../src/core/scopes'
import type { Operation } from '../../src/operations/operation'
import { OPERATIONS, type OperationName } from '../../src/operations/table'
import { newKey } from '../helpers/api'
import { MCP_TOOL_NAMES } from '../helpers/operations'
import { validSpec } from '../helpers/requests'
import { seedVenues } from '../helpers/venues'
import { mapBounded } from './support/http'
import { expectNoLeaks, watchConsole } from './support/leaks'
import { type McpOutcome, mcpSend, toolCall } from './support/mcp'
import { type Owned, ownedBy, stateOf } from './support/owned'
import { rowCounts } from './support/tables'
import { secretUser } from './support/users'

/**
 * The arguments of a successful call of a tool whose operation takes required input; a tool that
 * accepts `{}` is called with it, so an operation like that needs nothing here. The tools, their
 * names and scopes come from the operation table.
 */
const ARGUMENTS: Partial<Record<OperationName, (o: Owned) => Record<string, unknown>>> = {
  find_restaurants: () => ({ q: 'lilac' }),
  preview_request: () => ({ spec: validSpec() }),
  create_request: () => ({ spec: validSpec(), idempotency_key: newKey() }),
  update_request: (o) => ({
    request_id: o.requestId,
    revision: o.revision,
    spec: validSpec({ title: 'changed' }),
    idempotency_key: newKey(),
  }),
  get_request: (o) => ({ request_id: o.requestId }),
  stop_request: (o) => ({ request_id: o.requestId }),
  get_reservation: (o) => ({ reservation_id: o.reservationId }),
}

function argumentsOf(name: OperationName, op: Operation): (o: Owned) => Record<string, unknown> {
  const listed = ARGUMENTS[name]
  if (listed) return listed
  if (!op.input.safeParse({}).success) throw new Error(`the tool of ${name} takes required arguments: add them to ARGUMENTS`)
  return () => ({})
}

const TOOL_SCOPES: [string, Scope, (o: Owned) => Record<string, unknown>][] = (
  Object.entries(OPERATIONS) as [OperationName, Operation][]
).flatMap(([name, op]) => (op.tool ? [[`svc_${op.name}`, op.scope, argumentsOf(name, op)]] : []))

const TOKENS: [string, Scope[]][] = [
  ...SCOPES.map((s): [string, Scope[]] => [`only ${s}`, [s]]),
  ...SCOPES.map((s): [string, Scope[]] => [`all but ${s}`, SCOPES.filter((o) => o !== s)]),
]

type Expected = 'no connection' | 'tool answers' | 'tool refuses'

interface Cell {
  label: string
  token: string
  owned: Owned
  tool: string
  args: Record<string, unknown>
  expected: Expected
}

let cells: Cell[]

// Each test builds its own users, tokens and requests, and checks its own transcript for leaks.
beforeEach(async () => {
  watchConsole()
  await seedVenues()
  cells = []
  for (const [row, scopes] of TOKENS) {
    const { token } = await secretUser({ scopes })
    for (const [tool, scope, args] of TOOL_SCOPES) {
      const owned = await ownedBy(token, { title: `${row} ${tool}` })
      const expected: Expected = !scopes.includes('requests:read')
        ? 'no connection'
        : scopes.includes(scope)
          ? 'tool answers'
          : 'tool refuses'
      cells.push({ label: `${row} × ${tool}`, token, owned, tool, args: args(owned), expected })
    }
  }
})

const scopeOf = (tool: string) => TOOL_SCOPES.find(([name]) => name === tool)?.[1]

function verdict(o: McpOutcome, tool: string): string {
  if (o.kind === 'success') return 'tool answers'
  if (o.kind !== 'http' || o.status !== 403 || o.error?.code !== 'insufficient_scope')
    return `unexpected ${JSON.stringify(o).slice(0, 200)}`
  const challenged = /error="insufficient_scope", scope="([^"]*)"/.exec(o.challenge ?? '')?.[1]?.split(' ') ?? []
  if (o.error.message.startsWith('An MCP connection') && challenged.includes('requests:read')) return 'no connection'
  if (o.error.message.includes(tool) && challenged.includes(scopeOf(tool) ?? '')) return 'tool refuses'
  return `unexpected challenge ${o.challenge}`
}

describe('the MCP scope matrix', () => {
  it('covers every tool of the operation table with 8 tokens, half of them without a connection', () => {
    expect(TOOL_SCOPES.map(([tool]) => tool)).toEqual(MCP_TOOL_NAMES)
    expect(new Set(TOOL_SCOPES.map(([, scope]) => scope))).toEqual(new Set(SCOPES))
    expect(cells).toHaveLength(TOKENS.length * TOOL_SCOPES.length)
    expect(cells.filter((c) => c.expected === 'no connection')).toHaveLength((TOKENS.length / 2) * TOOL_SCOPES.length)
    expectNoLeaks()
  })

  it('refuses each cell whose scope is missing with HTTP 403 and the scope challenge, changing nothing', async () => {
    const refused = cells.filter((c) => c.expected !== 'tool answers')
    const before = await rowCounts()
    const states = await Promise.all(refused.map((c) => stateOf(c.token, c.owned.requestId)))
    const outcomes = await mapBounded(refused, 6, (c) => mcpSend(toolCall(c.token, c.tool, c.args)))
    expect(refused.map((c, i) => `${c.label}: ${verdict(outcomes[i]!, c.tool)}`)).toEqual(refused.map((c) => `${c.label}: ${c.expected}`))
    expect(await rowCounts()).toEqual(before)
    expect(await Promise.all(refused.map((c) => stateOf(c.token, c.owned.requestId)))).toEqual(states)
    expectNoLeaks()
  }, 60_000)

  it('answers each cell whose scope is held', async () => {
    const allowed = cells.filter((c) => c.expected === 'tool answers')
    const outcomes = await mapBounded(allowed, 6, (c) => mcpSend(toolCall(c.token, c.tool, c.args)))
    expect(allowed.map((c, i) => `${c.label}: ${verdict(outcomes[i]!, c.tool)}`)).toEqual(allowed.map((c) => `${c.label}: tool answers`))
    expectNoLeaks()
  }, 60_000)
})
