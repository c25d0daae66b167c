// The snippets for connecting MCP hosts in docs/mcp-hosts.md (Claude Desktop, Claude Code, Cursor,
// VS Code, mcp-remote, the Inspector with a token), checked against what the running service serves:
// each names its /mcp endpoint (the resource the service publishes, at npm start's origin), the
// pinned versions are the project's, and the token header works as written.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { describe, expect, inject, it } from 'vitest'
import { connectSnippets, mcpRemoteCommand, pinned } from '../readme'
import { seededToken } from '../tokens'

const baseUrl = inject('baseUrl')
/** `npm start`'s origin (scripts/start.mjs: port 8787, PUBLIC_BASE_URL following it). */
const DOCUMENTED_ORIGIN = 'http://localhost:8787'

/** The documented URL moved onto the running service's origin. */
const onService = (url: string) => {
  const documented = new URL(url)
  expect(documented.origin).toBe(DOCUMENTED_ORIGIN)
  return new URL(documented.pathname, baseUrl).href
}

async function publishedResource(): Promise<string> {
  const res = await fetch(`${baseUrl}/.well-known/oauth-protected-resource/mcp`)
  return ((await res.json()) as { resource: string }).resource
}

describe('docs/mcp-hosts.md: connect an MCP host', () => {
  const snippets = connectSnippets()
  const json = snippets
    .filter((s) => s.lang === 'json')
    .map((s) => JSON.parse(s.text) as Record<string, Record<string, Record<string, unknown>>>)
  const shell = snippets.filter((s) => s.lang === 'sh').map((s) => s.text)

  it('has the Claude Desktop, Cursor and VS Code configurations and three command lines', () => {
    expect(json).toHaveLength(3)
    expect(shell).toHaveLength(3)
  })

  it('points every configuration at the MCP resource the service publishes', async () => {
    const resource = await publishedResource()
    const [desktop, cursor, vscode] = json
    const desktopArgs = desktop?.mcpServers?.tablewatch?.args as string[]
    expect(desktop?.mcpServers?.tablewatch?.command).toBe('npx')
    expect(desktopArgs.slice(0, 2)).toEqual(['-y', `mcp-remote@${pinned().mcpRemote}`])
    expect(onService(desktopArgs[2] ?? '')).toBe(resource)
    expect(onService(String(cursor?.mcpServers?.tablewatch?.url))).toBe(resource)
    expect(vscode?.servers?.tablewatch?.type).toBe('http')
    expect(onService(String(vscode?.servers?.tablewatch?.url))).toBe(resource)
  })

  it('gives Claude Code and mcp-remote the same endpoint, with the pinned mcp-remote', async () => {
    const resource = await publishedResource()
    const claude = /^claude mcp add --transport http tablewatch (\S+)$/.exec(shell[0] ?? '')
    expect(claude, shell[0]).not.toBeNull()
    expect(onService(claude?.[1] ?? '')).toBe(resource)
    const remote = mcpRemoteCommand()
    expect(remote.slice(0, 3)).toEqual(['npx', '-y', `mcp-remote@${pinned().mcpRemote}`])
    expect(onService(remote[3] ?? '')).toBe(resource)
  })

  it('connects the Inspector line’s way: the pinned Inspector, and a token header that works as written', async () => {
    const line = shell[2] ?? ''
    const inspector =
      /^npx -y (@modelcontextprotocol\/inspector@\S+) --cli (\S+) --transport http --header "([^"]+)" --method tools\/list$/.exec(line)
    expect(inspector, line).not.toBeNull()
    expect(pinned().inspectorScript).toContain(`${inspector?.[1]} --cli`)
    const [name, value] = (inspector?.[3] ?? '').split(/:\s*/)
    const token = await seededToken('readme')
    const client = new Client({ name: 'readme-inspector-line', version: '1.0.0' })
    const url = new URL(onService(inspector?.[2] ?? ''))
    const headers = { [name ?? '']: (value ?? '').replace('$TOKEN', token) }
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }))
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toContain('svc_create_request')
    await client.close()
  })
})
