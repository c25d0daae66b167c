import type { McpServer } from '@modelcontextprotocol/server'
import { z } from 'zod'
import { requireScope } from '../../core/principal'
import { getRequest } from '../../requests/read'
import { RequestId, RequestView } from '../../requests/schemas'
import { argumentsOf, toolArguments } from '../arguments'
import type { ToolContext } from '../context'
import { RULES } from '../instructions'
import { runTool, toolResult } from '../result'
import { requestText } from '../summaries'

export const RequestIdInput = z.strictObject({ request_id: RequestId })

export function registerGetRequest(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'svc_get_request',
    {
      title: 'Read a request',
      description: [
        'Read a request created through this connection: status, revision, action_url while it needs approval, and reservations (with reservations:read).',
        RULES.verified,
        RULES.polling,
        'Needs requests:read.',
      ].join(' '),
      inputSchema: toolArguments(RequestIdInput),
      outputSchema: RequestView,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        requireScope(ctx.principal, 'requests:read')
        const { request_id } = argumentsOf(args)
        const view = await getRequest(ctx.deps, ctx.principal, request_id)
        return toolResult(view, requestText(view))
      }),
  )
}
