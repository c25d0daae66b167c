// A fresh MCP server per request, bound to the caller: the tools of src/mcp/tools.ts, each
// generated from the same operation as its REST route.
import { McpServer } from '@modelcontextprotocol/server'
import type { ToolContext } from './context'
import { SERVER_INSTRUCTIONS } from './instructions'
import { TOOLS } from './tools'

export const SERVER_INFO = { name: 'tablewatch', title: 'Tablewatch', version: '1.0.0' }

export function buildMcpServer(ctx: ToolContext): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: SERVER_INSTRUCTIONS })
  for (const register of Object.values(TOOLS)) register?.(server, ctx)
  return server
}
