// A fresh MCP server per request, bound to the caller: eight tools, each calling the same use
// case as its REST route.
import { McpServer } from '@modelcontextprotocol/server'
import type { ToolContext } from './context'
import { SERVER_INSTRUCTIONS } from './instructions'
import { registerCreateRequest } from './tools/create-request'
import { registerFindRestaurants } from './tools/find-restaurants'
import { registerGetRequest } from './tools/get-request'
import { registerGetReservation } from './tools/get-reservation'
import { registerListRequests } from './tools/list-requests'
import { registerPreviewRequest } from './tools/preview-request'
import { registerStopRequest } from './tools/stop-request'
import { registerUpdateRequest } from './tools/update-request'

export const SERVER_INFO = { name: 'tablewatch', title: 'Tablewatch', version: '1.0.0' }

const TOOLS = [
  registerFindRestaurants,
  registerPreviewRequest,
  registerCreateRequest,
  registerUpdateRequest,
  registerGetRequest,
  registerListRequests,
  registerStopRequest,
  registerGetReservation,
]

export function buildMcpServer(ctx: ToolContext): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: SERVER_INSTRUCTIONS })
  for (const register of TOOLS) register(server, ctx)
  return server
}
