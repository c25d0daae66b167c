// Every operation as the operation table declares it (src/operations/table.ts, with its REST
// route and MCP tool), for the tests that cover each one: an operation added to the table is
// covered here by itself, with no hand-written copy of the list to keep in step.
import { API_BASE } from '../../src/api/app'
import { ROUTES } from '../../src/api/routes'
import type { Scope } from '../../src/core/scopes'
import { TOOLS } from '../../src/mcp/tools'
import type { OperationName } from '../../src/operations/table'

/** The MCP tools' names (`svc_…`); an operation without a tool (capabilities) is left out. */
export const MCP_TOOL_NAMES: string[] = TOOLS.map((tool) => tool.name)

/** The MCP tools a token with these scopes is offered. */
export const mcpToolNamesFor = (scopes: readonly Scope[]): string[] =>
  TOOLS.flatMap((tool) => (scopes.includes(tool.scope) ? [tool.name] : []))

/** Each REST route as [method, OpenAPI path under /api/v1, operation], as openapi.json documents it. */
export const REST_ENDPOINTS = ROUTES.map((route): [string, string, OperationName] => [
  route.method,
  `${API_BASE}${route.path}`,
  route.name as OperationName,
])
