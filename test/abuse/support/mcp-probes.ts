// Every bad MCP input of the suite: each tool's arguments broken in every way its served
// input schema (tools/list) allows, the spec rules the schema cannot show, ids that are not
// this token's, and JSON-RPC messages and HTTP requests /mcp must refuse.
import type { z } from 'zod'
import { OPERATIONS } from '../../../src/operations/table'
import { newKey } from '../../helpers/api'
import type { Call } from './http'
import { MCP_ORIGIN, mcpHeaders, rpc, toolCall } from './mcp'
import { type ObjectExamples, objectMutants } from './mutate'
import { JsonSchema } from './openapi'
import { namedRuleCases, specExamples, windowCases, zoneCases } from './spec-cases'

export interface McpProbe {
  /** The tool it targets, or "protocol" for messages that reach no tool. */
  tool: string
  name: string
  call: Call
  /** The contract code the tool error must carry, when a named rule decides. */
  wantCode?: string
}

export interface McpTarget {
  token: string
  requestId: string
  revision: number
  reservationId: number
}

interface ToolShape {
  zod: z.ZodType
  examples: ObjectExamples
  /** Wraps a whole spec into this tool's arguments (spec tools only). */
  wrapSpec?: (spec: unknown) => Record<string, unknown>
}

function shapes(t: McpTarget): Record<string, ToolShape> {
  const key = newKey()
  const spec = specExamples()
  return {
    svc_find_restaurants: { zod: OPERATIONS.find_restaurants.input, examples: { valid: { q: 'lilac' } } },
    svc_preview_request: {
      zod: OPERATIONS.preview_request.input,
      examples: { valid: { spec: spec.valid }, nested: { spec } },
      wrapSpec: (s) => ({ spec: s }),
    },
    svc_create_request: {
      zod: OPERATIONS.create_request.input,
      examples: { valid: { spec: spec.valid, idempotency_key: key }, nested: { spec } },
      wrapSpec: (s) => ({ spec: s, idempotency_key: key }),
    },
    svc_update_request: {
      zod: OPERATIONS.update_request.input,
      examples: {
        valid: { request_id: t.requestId, revision: t.revision, spec: { ...spec.valid, title: 'updated' }, idempotency_key: key },
        nested: { spec },
      },
      wrapSpec: (s) => ({ request_id: t.requestId, revision: t.revision, spec: s, idempotency_key: key }),
    },
    svc_get_request: { zod: OPERATIONS.get_request.input, examples: { valid: { request_id: t.requestId } } },
    svc_list_requests: { zod: OPERATIONS.list_requests.input, examples: { valid: { limit: 20 } } },
    svc_stop_request: { zod: OPERATIONS.stop_request.input, examples: { valid: { request_id: t.requestId } } },
    svc_get_reservation: {
      zod: OPERATIONS.get_reservation.input,
      examples: { valid: { reservation_id: t.reservationId } },
    },
  }
}

export interface ToolProbes {
  probes: McpProbe[]
  /** Mutants of the served schema that the tool's zod schema still accepts (so not sent). */
  acceptedBySchema: string[]
}

const ODD_KEYS = [
  'short7c',
  'k'.repeat(129),
  'has space in it',
  'slash/slash/slash',
  'quote"quote"',
  'percent%20key',
  'clé-clé-clé',
  'emoji-🍝-key',
  'nul\u0000nul-nul',
]

function namedProbes(tool: string, t: McpTarget, shape: ToolShape): McpProbe[] {
  const out: McpProbe[] = []
  const call = (args: unknown) => toolCall(t.token, tool, args)
  if (shape.wrapSpec) {
    const wrap = shape.wrapSpec
    for (const m of namedRuleCases())
      out.push({ tool, name: m.name, call: call(wrap(m.value)), ...(m.want.kind === 'code' ? { wantCode: m.want.code } : {}) })
    for (const m of [...zoneCases(), ...windowCases()]) {
      const schemaRefuses = !shape.zod.safeParse(wrap(m.value)).success
      out.push({ tool, name: m.name, call: call(wrap(m.value)), ...(schemaRefuses ? {} : { wantCode: 'venue_timezone_mismatch' }) })
    }
  }
  if ('idempotency_key' in shape.examples.valid) {
    for (const k of ODD_KEYS)
      out.push({
        tool,
        name: `idempotency_key ${JSON.stringify(k.slice(0, 20))}`,
        call: call({ ...shape.examples.valid, idempotency_key: k }),
      })
  }
  if ('request_id' in shape.examples.valid) {
    out.push({
      tool,
      name: 'a request id that never existed',
      call: call({ ...shape.examples.valid, request_id: 'sr_doesnotexist' }),
      wantCode: 'request_not_found',
    })
    for (const id of ['..', '../stop', 'sr_\u0000', "sr_'or'1'='1", '%00', 'sr_🍝'])
      out.push({
        tool,
        name: `request id ${JSON.stringify(id)}`,
        call: call({ ...shape.examples.valid, request_id: id }),
        wantCode: 'request_not_found',
      })
  }
  if (tool === 'svc_get_reservation') {
    out.push({
      tool,
      name: 'a reservation id that never existed',
      call: call({ reservation_id: 987_654_321 }),
      wantCode: 'reservation_not_found',
    })
  }
  for (const args of ['x', 7, true, []]) out.push({ tool, name: `arguments ${JSON.stringify(args)}`, call: call(args) })
  return out
}

/**
 * A tool with no examples above whose operation takes no required input (`{}` is valid) is
 * probed from `{}`: adding such an operation needs nothing here. One with required
 * input needs its valid example above.
 */
function shapeOf(tool: string, t: McpTarget): ToolShape | undefined {
  const listed = shapes(t)[tool]
  if (listed) return listed
  const operation = Object.entries(OPERATIONS).find(([name]) => `svc_${name}` === tool)?.[1]
  return operation?.input.safeParse({}).success ? { zod: operation.input, examples: { valid: {} } } : undefined
}

export function toolProbes(tool: string, servedSchema: unknown, t: McpTarget): ToolProbes {
  const shape = shapeOf(tool, t)
  if (!shape) throw new Error(`no examples for tool ${tool}: add its valid arguments to shapes()`)
  const schema = JsonSchema.parse(servedSchema)
  const acceptedBySchema: string[] = []
  const probes: McpProbe[] = []
  for (const m of objectMutants(schema, shape.examples)) {
    if (shape.zod.safeParse(m.value).success) acceptedBySchema.push(m.name)
    else probes.push({ tool, name: m.name, call: toolCall(t.token, tool, m.value) })
  }
  probes.push(...namedProbes(tool, t, shape))
  return { probes, acceptedBySchema }
}

const raw = (token: string, name: string, body: string, headers: Record<string, string> = {}, method = 'POST'): McpProbe => ({
  tool: 'protocol',
  name,
  call: {
    origin: MCP_ORIGIN,
    method,
    path: '/mcp',
    headers: mcpHeaders(token, headers),
    ...(method === 'GET' || method === 'HEAD' ? {} : { body }),
  },
})

/** Messages that reach no tool: broken JSON-RPC, unknown methods and tools, refused HTTP. */
export function protocolProbes(token: string): McpProbe[] {
  const list = JSON.stringify(rpc('tools/list'))
  const call = (params: unknown) => JSON.stringify(rpc('tools/call', params))
  const messages: [string, string][] = [
    ['malformed JSON', '{"jsonrpc": "2.0", "id": 1, "method": "tools/list"'],
    ['an empty body', ''],
    ['a JSON string', '"tools/list"'],
    ['JSON null', 'null'],
    ['an empty object', '{}'],
    ['jsonrpc 1.0', JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'tools/list' })],
    ['no jsonrpc field', JSON.stringify({ id: 1, method: 'tools/list' })],
    ['an object as id', JSON.stringify({ jsonrpc: '2.0', id: { a: 1 }, method: 'tools/list' })],
    ['a method that does not exist', JSON.stringify(rpc('tools/destroy'))],
    ['a resource read of a made-up URI', JSON.stringify(rpc('resources/read', { uri: 'file:///etc/passwd' }))],
    ['a prompt that does not exist', JSON.stringify(rpc('prompts/get', { name: 'nope' }))],
    ['a tool that does not exist', call({ name: 'svc_cancel_reservation', arguments: {} })],
    ['a tool name in upper case', call({ name: 'SVC_LIST_REQUESTS', arguments: {} })],
    ['a tool call without a name', call({ arguments: {} })],
    ['a tool call with params as an array', call(['svc_list_requests'])],
    ['a tool call with a numeric name', call({ name: 7, arguments: {} })],
    ['a 100 kB method name', JSON.stringify(rpc('x'.repeat(100_000)))],
    ['a 3,000-deep params value', `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${'['.repeat(3000)}${']'.repeat(3000)}}`],
  ]
  return [
    ...messages.map(([name, body]) => raw(token, name, body)),
    raw(token, 'content type text/plain', list, { 'Content-Type': 'text/plain' }),
    raw(token, 'content type application/x-www-form-urlencoded', list, { 'Content-Type': 'application/x-www-form-urlencoded' }),
    raw(token, 'Accept text/html only', list, { Accept: 'text/html' }),
    raw(token, 'Accept application/json only', list, { Accept: 'application/json' }),
    raw(token, 'an unsupported protocol version', list, { 'MCP-Protocol-Version': '1999-01-01' }),
    raw(token, 'a protocol version that is not a date', list, { 'MCP-Protocol-Version': 'latest' }),
    raw(token, 'a foreign Host', list, { Host: 'evil.example' }),
    raw(token, 'a foreign Origin', list, { Origin: 'https://evil.example' }),
    raw(token, 'DELETE /mcp', '', {}, 'DELETE'),
    raw(token, 'PUT /mcp', list, {}, 'PUT'),
    raw(token, 'PATCH /mcp', list, {}, 'PATCH'),
  ]
}
