// A fresh MCP server per request, bound to the caller: the tools of src/mcp/tools.ts that the
// caller's scopes allow, each generated from the same operation as its REST route.
import { McpServer } from '@modelcontextprotocol/server'
import type { ToolContext } from './context'
import { SERVER_INSTRUCTIONS } from './instructions'
import { TOOLS } from './tools'

export const SERVER_INFO = { name: 'tablewatch', title: 'Tablewatch', version: '1.0.0' }

export function buildMcpServer(ctx: ToolContext): McpServer {
  // The tool list never changes during a connection (it depends only on the token's scopes),
  // so list changes are not advertised.
  const server = new McpServer(SERVER_INFO, {
    instructions: SERVER_INSTRUCTIONS,
    capabilities: { tools: { listChanged: false } },
    // A 2026-07-28 retry's requestState is checked (signature, binding, age) before any tool runs.
    requestState: { verify: (state, call) => ctx.approvals.codec.verify(state, call) },
  })
  for (const tool of Object.values(TOOLS)) tool?.register(server, ctx)
  return server
}
