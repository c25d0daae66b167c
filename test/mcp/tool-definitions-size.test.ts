// Tool definitions go into the model's context on every turn, so tools/list stays small: at most
// 12 KB for the eight tools, measured here as the bytes of the JSON-RPC result a host receives.
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

describe('tools/list size', () => {
  it('is at most 12 KB for the eight tools, with no $schema and no long date patterns', async () => {
    const { token } = await createUserWithToken()
    const res = await mcpPost(rpc('tools/list'), { token })
    expect(res.status).toBe(200)
    const tools = res.message?.result?.tools as JsonBody[]
    expect(tools).toHaveLength(8)
    const bytes = new TextEncoder().encode(JSON.stringify(res.message?.result)).byteLength
    console.log(`tools/list result: ${bytes} bytes for ${tools.length} tools`)
    for (const tool of tools) {
      const each = new TextEncoder().encode(JSON.stringify(tool)).byteLength
      console.log(`  ${tool.name}: ${each} bytes`)
    }
    expect(bytes).toBeLessThanOrEqual(MAX_TOOLS_LIST_BYTES)
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
