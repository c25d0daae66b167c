import type { McpServer } from '@modelcontextprotocol/server'
import { requireScope } from '../../core/principal'
import { listRequests } from '../../requests/read'
import { ListQuery, RequestList } from '../../requests/schemas'
import { argumentsOf, toolArguments } from '../arguments'
import type { ToolContext } from '../context'
import { RULES } from '../instructions'
import { runTool, toolResult } from '../result'
import { listText } from '../summaries'

export function registerListRequests(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'svc_list_requests',
    {
      title: 'List requests',
      description: [
        "This connection's requests, newest first, including ones from earlier conversations; limit 1 to 100 (default 20), and next_cursor for the next page.",
        `Check it before creating: ${RULES.oneRequestPerDinner}`,
        'Needs requests:read.',
      ].join(' '),
      inputSchema: toolArguments(ListQuery),
      outputSchema: RequestList,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        requireScope(ctx.principal, 'requests:read')
        const page = argumentsOf(args)
        const result = await listRequests(ctx.deps, ctx.principal, page)
        return toolResult(result, listText(result))
      }),
  )
}
