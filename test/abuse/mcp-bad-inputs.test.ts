// Bad inputs for every MCP tool, generated from the input schemas /mcp serves (tools/list) and
// the tools' zod schemas, plus JSON-RPC and HTTP requests /mcp must refuse. Each is refused (an
// HTTP 4xx, a JSON-RPC error or a tool error), never a 5xx, and no batch changes anything. Tool
// errors must carry the contract's `{code, message}` like every other tool error.
import { beforeEach, describe, expect, it } from 'vitest'
import { MCP_TOOL_NAMES } from '../helpers/operations'
import { createOk, insertReservation } from '../helpers/requests'
import { seedVenues } from '../helpers/venues'
import { mapBounded } from './support/http'
import { expectNoLeaks, watchConsole } from './support/leaks'
import { listTools, type McpOutcome, mcpSend } from './support/mcp'
import { type McpProbe, type McpTarget, protocolProbes, toolProbes } from './support/mcp-probes'
import { stateOf } from './support/owned'
import { rowCounts } from './support/tables'
import { secretUser } from './support/users'

const TOOLS = MCP_TOOL_NAMES
const BATCHES = [...TOOLS, 'protocol']
const CONCURRENCY = 6
const BATCH_TIMEOUT_MS = 90_000

let target: McpTarget
let probes: McpProbe[]
let acceptedBySchema: string[]

// Each test gets its own owner, target and probes (from the served schemas), and checks its own
// transcript for leaks.
beforeEach(async () => {
  watchConsole()
  await seedVenues()
  const owner = await secretUser()
  const view = await createOk(owner.token)
  target = {
    token: owner.token,
    requestId: String(view.id),
    revision: Number(view.revision),
    reservationId: await insertReservation(String(view.id)),
  }
  const tools = await listTools(owner.token)
  expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort())
  probes = []
  acceptedBySchema = []
  for (const tool of tools) {
    const made = toolProbes(tool.name, tool.inputSchema, target)
    probes.push(...made.probes)
    acceptedBySchema.push(...made.acceptedBySchema.map((name) => `${tool.name}: ${name}`))
  }
  probes.push(...protocolProbes(owner.token))
})

/** A refusal that must not happen: a 5xx, an acceptance, the wrong code, an unreadable answer. */
function hardProblem(probe: McpProbe, o: McpOutcome): string | null {
  switch (o.kind) {
    case 'http':
      if (o.status >= 500) return `HTTP ${o.status}`
      if (o.status < 400) return `HTTP ${o.status}, not a refusal`
      return null
    case 'rpc_error':
      return null
    case 'tool_error':
      return probe.wantCode && o.error && o.error.code !== probe.wantCode ? `code ${o.error.code}, wanted ${probe.wantCode}` : null
    case 'success':
      return 'accepted'
    case 'unreadable':
      return `unreadable answer ${o.status}: ${o.text}`
  }
}

/** A refusal in the wrong shape: no `{code, message}` in a tool error or an HTTP error body. */
function formatProblem(probe: McpProbe, o: McpOutcome): string | null {
  if (o.kind === 'tool_error' && !o.error) return `tool error without code and message: ${o.text.slice(0, 160)}`
  if (o.kind === 'tool_error' && probe.wantCode && !o.error) return `wanted ${probe.wantCode}`
  if (o.kind === 'http' && o.status >= 400 && !o.error) return `HTTP ${o.status} without a JSON-RPC or contract error body`
  return null
}

interface BatchResult {
  sent: number
  hard: string[]
  format: string[]
  countsChanged: boolean
  targetChanged: boolean
}

const batches = new Map<string, Promise<BatchResult>>()

/** Each batch runs once, whichever test asks first: both tests of a batch read the same answers. */
function runBatch(batch: string): Promise<BatchResult> {
  let running = batches.get(batch)
  if (!running) {
    running = sendBatch(probes.filter((p) => p.tool === batch))
    batches.set(batch, running)
  }
  return running
}

const targetView = () => stateOf(target.token, target.requestId)

async function sendBatch(batch: McpProbe[]): Promise<BatchResult> {
  const before = await rowCounts()
  const viewBefore = await targetView()
  const outcomes = await mapBounded(batch, CONCURRENCY, (p) => mcpSend(p.call))
  const report = (check: (p: McpProbe, o: McpOutcome) => string | null) =>
    batch.flatMap((p, i) => {
      const problem = check(p, outcomes[i]!)
      return problem ? [`${p.tool} | ${p.name} | ${problem}`] : []
    })
  return {
    sent: batch.length,
    hard: report(hardProblem),
    format: report(formatProblem),
    countsChanged: JSON.stringify(await rowCounts()) !== JSON.stringify(before),
    targetChanged: JSON.stringify(await targetView()) !== JSON.stringify(viewBefore),
  }
}

/** Many failures of one kind read best as a count per kind with one example. */
function summarize(problems: string[]): string[] {
  const groups = new Map<string, string[]>()
  for (const p of problems) {
    const [tool = '', , kind = ''] = p.split(' | ')
    const key = `${tool} | ${kind.replace(/:.*/, '')}`
    groups.set(key, [...(groups.get(key) ?? []), p])
  }
  return [...groups].map(([key, list]) => `${list.length}× ${key} — e.g. ${list[0]}`)
}

describe('bad MCP inputs', () => {
  it('are generated for every tool from its served schema, hundreds of them', () => {
    for (const tool of TOOLS) expect(probes.filter((p) => p.tool === tool).length, tool).toBeGreaterThan(10)
    expect(probes.length).toBeGreaterThanOrEqual(1000)
    // Served-schema violations the zod schema accepts (coerced list limits): reported, not sent.
    expect(acceptedBySchema.every((name) => name.startsWith('svc_list_requests: limit'))).toBe(true)
    expectNoLeaks()
  })

  it.each(BATCHES)(
    '%s: refuses each one, never with a 5xx, and changes nothing',
    async (batch) => {
      const result = await runBatch(batch)
      expect(result.sent).toBeGreaterThan(0)
      expect(result.hard).toEqual([])
      expect(result.countsChanged).toBe(false)
      expect(result.targetChanged).toBe(false)
      expectNoLeaks()
    },
    BATCH_TIMEOUT_MS,
  )

  it(
    "every refusal carries the contract's code and message, as the tools' own errors do",
    async () => {
      const results = await Promise.all(BATCHES.map(runBatch))
      expect(summarize(results.flatMap((r) => r.format))).toEqual([])
      expectNoLeaks()
    },
    BATCH_TIMEOUT_MS * 2,
  )
})
