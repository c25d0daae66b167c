// A fresh MCP server per request, bound to the caller: the tools of src/mcp/tools.ts that the
// caller's scopes allow, each generated from the same operation as its REST route.
import { McpServer } from '@modelcontextprotocol/server'
import { SERVER_INSTRUCTIONS } from '../operations/rules'
import type { ToolContext } from './context'
import { serviceIcons } from './icons'
import { APP_MIME_TYPE, APPS_EXTENSION, registerRequestView } from './request-view'
import { TOOLS } from './tools'

const SERVER_INFO = { name: 'tablewatch', title: 'Tablewatch', version: '1.0.0' }

/**
 * How long a host may reuse tools/list and server/discover (2026-07-28 cache hints): the list
 * changes only with the token's scopes or a new release; a step-up (new token, more tools) shows
 * within this time at worst. Private: it depends on the caller's scopes.
 */
const LIST_TTL_MS = 5 * 60 * 1000

export function buildMcpServer(ctx: ToolContext): McpServer {
  // The tool list never changes during a connection (it depends only on the token's scopes),
  // so list changes are not advertised; nor does the one resource, the request view.
  const info = { ...SERVER_INFO, websiteUrl: ctx.deps.baseUrl, icons: serviceIcons(ctx.deps.baseUrl) }
  const server = new McpServer(info, {
    instructions: SERVER_INSTRUCTIONS,
    capabilities: {
      tools: { listChanged: false },
      resources: { listChanged: false },
      // MCP Apps: the request view (src/mcp/request-view.ts) for hosts that render one.
      extensions: { [APPS_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } },
    },
    cacheHints: {
      'tools/list': { ttlMs: LIST_TTL_MS, cacheScope: 'private' },
      'server/discover': { ttlMs: LIST_TTL_MS, cacheScope: 'private' },
    },
    // A 2026-07-28 retry's requestState is checked (signature, binding, age) before any tool runs.
    requestState: { verify: (state, call) => ctx.approvals.codec.verify(state, call) },
  })
  for (const tool of TOOLS) tool.register(server, ctx)
  registerRequestView(server, ctx.deps.baseUrl)
  return server
}
