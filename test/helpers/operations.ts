// Every operation as the operation table declares it (src/requests/operations.ts, with its REST
// route and MCP tool), for the tests that cover each one: an operation added to the table is
// covered here by itself, with no hand-written copy of the list to keep in step.
import { API_BASE } from '../../src/api/app'
import { ROUTES } from '../../src/api/routes'
import { TOOLS } from '../../src/mcp/tools'

/** The MCP tools' names (`svc_…`); an operation without a tool (capabilities) is left out. */
export const MCP_TOOL_NAMES: string[] = Object.values(TOOLS).flatMap((tool) => (tool ? [tool.name] : []))

/** Each REST route as [method, OpenAPI path under /api/v1], as openapi.json documents it. */
export const REST_ENDPOINTS: [string, string][] = Object.values(ROUTES).map((route) => [route.method, `${API_BASE}${route.path}`])
