// The request view for MCP Apps hosts: the ui:// resource is listed and read like any resource
// (under the 2025-era lane and the 2026-07-28 one), its page can reach nothing on the network,
// the get, create and update tools name it, and hosts without Apps get the same result as before.
import { describe, expect, it } from 'vitest'
import { newKey } from '../helpers/api'
import { createUserWithToken } from '../helpers/auth'
import type { JsonBody } from '../helpers/json'
import { validSpec } from '../helpers/requests'
import { seedVenues } from '../helpers/venues'
import { callTool, initialize, listTools, mcpPost, rpc } from './mcp-client'

const URI = 'ui://tablewatch/request.html'
const MIME = 'text/html;profile=mcp-app'

function modern(method: string, params: Record<string, unknown> = {}) {
  const body = {
    jsonrpc: '2.0',
    id: 9,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  }
  const headers: Record<string, string> = { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method }
  if (typeof params.uri === 'string') headers['Mcp-Name'] = params.uri
  return { body, headers }
}

async function readView(token: string): Promise<JsonBody> {
  const res = await mcpPost(rpc('resources/read', { uri: URI }), { token })
  expect(res.status).toBe(200)
  const contents = res.message?.result?.contents as JsonBody[]
  expect(contents).toHaveLength(1)
  return contents[0] as JsonBody
}

describe('the request view resource', () => {
  it('initialize declares resources and the Apps extension', async () => {
    const { token } = await createUserWithToken()
    const res = await initialize(token)
    const capabilities = res.message?.result?.capabilities as JsonBody
    expect(capabilities.resources).toBeDefined()
    expect(capabilities.extensions).toEqual({ 'io.modelcontextprotocol/ui': { mimeTypes: [MIME] } })
  })

  it('resources/list names the one view, and resources/read serves its page', async () => {
    const { token } = await createUserWithToken()
    const listed = await mcpPost(rpc('resources/list'), { token })
    expect(listed.status).toBe(200)
    expect(listed.message?.error).toBeUndefined()
    expect(listed.message?.result?.resources).toEqual([expect.objectContaining({ uri: URI, mimeType: MIME, name: 'request_view' })])
    const view = await readView(token)
    expect(view.uri).toBe(URI)
    expect(view.mimeType).toBe(MIME)
    expect(String(view.text)).toMatch(/^<!doctype html>/)
    expect(view._meta).toEqual({
      ui: { csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] }, prefersBorder: true },
    })
  })

  it('the page loads nothing from anywhere and its own policy allows no connection', async () => {
    const { token } = await createUserWithToken()
    const html = String((await readView(token)).text)
    expect(html).not.toMatch(/\b(src|href|action)\s*=/i)
    const policy = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? ''
    expect(policy).toContain("default-src 'none'")
    expect(policy).toContain("connect-src 'none'")
    expect(policy).not.toContain('unsafe-inline')
    expect(policy).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/)
    // The only origin whose approval page the button opens is the service's own.
    expect(html).toContain('data-origin="http://localhost:8787"')
  })

  it('is served under the 2026-07-28 protocol too', async () => {
    const { token } = await createUserWithToken()
    const list = modern('resources/list')
    const listed = await mcpPost(list.body, { token, headers: list.headers })
    expect(listed.status).toBe(200)
    expect(listed.message?.result?.resources).toEqual([expect.objectContaining({ uri: URI })])
    const read = modern('resources/read', { uri: URI })
    const answered = await mcpPost(read.body, { token, headers: read.headers })
    expect(answered.status).toBe(200)
    expect(answered.message?.result?.contents).toEqual([expect.objectContaining({ mimeType: MIME })])
  })

  it('an unknown ui:// resource is a clear error', async () => {
    const { token } = await createUserWithToken()
    const res = await mcpPost(rpc('resources/read', { uri: 'ui://tablewatch/other.html' }), { token })
    expect(res.message?.error?.message).toMatch(/not found/i)
  })
})

describe('the tools that show it', () => {
  it('get, create and update name the view; the other tools do not', async () => {
    const { token } = await createUserWithToken()
    const tools = await listTools(token)
    const withView = tools.filter((t) => (t._meta as JsonBody | undefined)?.ui).map((t) => t.name)
    expect(withView.sort()).toEqual(['svc_create_request', 'svc_get_request', 'svc_update_request'])
    for (const tool of tools) {
      if (withView.includes(tool.name)) expect(tool._meta).toEqual({ ui: { resourceUri: URI } })
      expect(tool.icons).toBeUndefined()
    }
  })

  it('a host without Apps still gets the summary, the JSON and structuredContent', async () => {
    await seedVenues()
    const { token } = await createUserWithToken()
    const created = await callTool(token, 'svc_create_request', { spec: { ...validSpec(), mode: 'auto_book' }, idempotency_key: newKey() })
    expect(created.isError).toBe(false)
    expect(created.structured?.status).toBe('needs_approval')
    expect(created.texts).toHaveLength(2)
    expect(created.texts[0]).toContain(String(created.structured?.action_url))
    expect(JSON.parse(created.texts[1] ?? '')).toEqual(created.structured)
  })
})
