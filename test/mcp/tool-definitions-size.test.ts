// Tool definitions go into the model's context on every turn, so tools/list stays small: at most
// 12 KB for the eight tools at every protocol version, measured as the bytes of the JSON-RPC
// result a host receives from a deployment with a 60-character origin (the Apps view's metadata
// included).
// Small does not mean loose: a date that is not on the calendar is still refused, with a clear
// tool error.
import { describe, expect, it } from 'vitest'
import { newKey } from '../helpers/api'
import { createUserWithToken } from '../helpers/auth'
import type { JsonBody } from '../helpers/json'
import { validSpec } from '../helpers/requests'
import { seedVenues } from '../helpers/venues'
import { callTool, mcpPost, rpc } from './mcp-client'

const MAX_TOOLS_LIST_BYTES = 12 * 1024

function walk(schema: unknown, visit: (node: JsonBody) => void): void {
  if (Array.isArray(schema)) for (const item of schema) walk(item, visit)
  else if (schema && typeof schema === 'object') {
    visit(schema as JsonBody)
    for (const value of Object.values(schema)) walk(value, visit)
  }
}

/** A deployment origin of 60 characters, where the test service answers as http://localhost:8787. */
const TEST_ORIGIN = 'http://localhost:8787'
const LONG_ORIGIN = `https://${'a'.repeat(60 - 'https://'.length - '.example'.length)}.example`

const LEGACY_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']
const MODERN_VERSION = '2026-07-28'

/** A 2026-07-28 tools/list: the version and the client travel in the request's _meta. */
function modernList() {
  const body = {
    jsonrpc: '2.0',
    id: 5,
    method: 'tools/list',
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
        'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  }
  return { body, headers: { 'MCP-Protocol-Version': MODERN_VERSION, 'Mcp-Method': 'tools/list' } }
}

/**
 * The bytes of the result as a deployment at LONG_ORIGIN would send it: the origin is the only
 * part of the answer that depends on the deployment, so each of its occurrences is replaced.
 */
function bytesAtLongOrigin(result: unknown): number {
  const text = JSON.stringify(result).replaceAll(TEST_ORIGIN, LONG_ORIGIN)
  return new TextEncoder().encode(text).byteLength
}

async function listAt(token: string, version: string): Promise<JsonBody> {
  const res =
    version === MODERN_VERSION
      ? await mcpPost(modernList().body, { token, headers: modernList().headers })
      : await mcpPost(rpc('tools/list'), { token, headers: { 'MCP-Protocol-Version': version } })
  expect(res.status, version).toBe(200)
  return res.message?.result as JsonBody
}

describe('tools/list size', () => {
  it.each([...LEGACY_VERSIONS, MODERN_VERSION])(
    'is at most 12 KB at %s with a 60-character origin, view metadata included',
    async (version) => {
      expect(LONG_ORIGIN).toHaveLength(60)
      const { token } = await createUserWithToken()
      const result = await listAt(token, version)
      const tools = result.tools as JsonBody[]
      expect(tools).toHaveLength(8)
      expect(tools.filter((t) => (t._meta as JsonBody | undefined)?.ui)).toHaveLength(3)
      const bytes = bytesAtLongOrigin(result)
      const atTestOrigin = new TextEncoder().encode(JSON.stringify(result)).byteLength
      console.log(`tools/list at ${version}: ${bytes} bytes with a 60-character origin (${atTestOrigin} at ${TEST_ORIGIN})`)
      expect(bytes).toBeLessThanOrEqual(MAX_TOOLS_LIST_BYTES)
    },
  )

  it('has no $schema and no long date patterns', async () => {
    const { token } = await createUserWithToken()
    const res = await mcpPost(rpc('tools/list'), { token })
    const tools = res.message?.result?.tools as JsonBody[]
    for (const tool of tools) {
      const each = new TextEncoder().encode(JSON.stringify(tool)).byteLength
      console.log(`  ${tool.name}: ${each} bytes`)
    }
    let schemas = 0
    let longPatterns = 0
    walk(tools, (node) => {
      if ('$schema' in node) schemas++
      if (typeof node.pattern === 'string' && node.pattern.length > 80) longPatterns++
    })
    expect(schemas).toBe(0)
    expect(longPatterns).toBe(0)
  })

  it('still tells a host the date format, and the spec is still strict', async () => {
    const { token } = await createUserWithToken()
    const res = await mcpPost(rpc('tools/list'), { token })
    const create = ((res.message?.result?.tools ?? []) as JsonBody[]).find((t) => t.name === 'svc_create_request')
    const text = JSON.stringify(create?.inputSchema)
    expect(text).toContain('YYYY-MM-DD')
    expect(text).toContain('"additionalProperties":false')
  })
})

describe('dates the short pattern lets through', () => {
  it.each([
    ['2026-02-30', 'not a day of that month'],
    ['2026-13-01', 'no such month'],
    ['2027-02-29', 'not a leap year'],
  ])('refuses %s (%s) with a clear tool error naming the field', async (date) => {
    await seedVenues()
    const { token } = await createUserWithToken()
    const spec = { ...validSpec(), dates: [date] }
    const result = await callTool(token, 'svc_create_request', { spec, idempotency_key: newKey() })
    expect(result.isError).toBe(true)
    expect(result.error?.code).toBe('invalid_request')
    const detail = result.error?.detail as { loc: (string | number)[]; msg: string }[]
    expect(detail).toContainEqual(expect.objectContaining({ loc: ['arguments', 'spec', 'dates', 0] }))
    expect(detail.map((d) => d.msg).join(' ')).toContain('calendar date')
  })
})
