// What hosts show and cache: the server's and each tool's icon and website,
// a real cache lifetime for the tool list, and schemas strict hosts accept.
import { describe, expect, it } from 'vitest'
import { createUserWithToken } from '../helpers/auth'
import type { JsonBody } from '../helpers/json'
import { validSpec } from '../helpers/requests'
import { seedVenues } from '../helpers/venues'
import { callTool, initialize, mcpPost } from './mcp-client'

const ICON = { src: 'http://localhost:8787/favicon.svg', mimeType: 'image/svg+xml', sizes: ['any'] }

function modern(method: string) {
  const body = {
    jsonrpc: '2.0',
    id: 3,
    method,
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  }
  return { body, headers: { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method } }
}

/** Every `type` keyword in a JSON Schema, wherever it is nested. */
function typesIn(schema: unknown): unknown[] {
  if (Array.isArray(schema)) return schema.flatMap(typesIn)
  if (!schema || typeof schema !== 'object') return []
  return Object.entries(schema).flatMap(([key, value]) => (key === 'type' ? [value] : typesIn(value)))
}

describe('what hosts show and cache', () => {
  it('names the server with its website and icon', async () => {
    const { token } = await createUserWithToken()
    const info = (await initialize(token)).message?.result?.serverInfo
    expect(info).toMatchObject({ name: 'tablewatch', websiteUrl: 'http://localhost:8787', icons: [ICON] })
  })

  it('leaves the icon to the server (none per tool), and gives the list a five-minute private cache lifetime', async () => {
    const { token } = await createUserWithToken()
    const { body, headers } = modern('tools/list')
    const result = (await mcpPost(body, { token, headers })).message?.result
    expect(result?.ttlMs).toBe(300_000)
    expect(result?.cacheScope).toBe('private')
    const tools: JsonBody[] = result?.tools ?? []
    expect(tools.length).toBeGreaterThan(0)
    for (const tool of tools) expect(tool.icons, tool.name).toBeUndefined()
  })

  it('writes nullable fields of input schemas without type arrays', async () => {
    const { token } = await createUserWithToken()
    const { body, headers } = modern('tools/list')
    const tools = (await mcpPost(body, { token, headers })).message?.result?.tools as JsonBody[]
    for (const tool of tools) {
      expect(
        typesIn(tool.inputSchema).filter((type) => typeof type !== 'string'),
        tool.name,
      ).toEqual([])
    }
  })

  it('says where to connect the platform account when the service is not ready for the user', async () => {
    await seedVenues()
    const { token } = await createUserWithToken()
    const preview = await callTool(token, 'svc_preview_request', { spec: validSpec() })
    expect(preview.structured?.executor).toMatchObject({ ready: false, reason: 'resy_not_connected' })
    expect(preview.texts[0]).toContain('connect their reservation platform account in Settings: http://localhost:8787/settings')
  })
})
