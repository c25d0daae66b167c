import type { McpServer } from '@modelcontextprotocol/server'
import { requireScope } from '../../core/principal'
import { RequestView } from '../../requests/schemas'
import { stopRequest } from '../../requests/stop'
import { argumentsOf, toolArguments } from '../arguments'
import type { ToolContext } from '../context'
import { RULES } from '../instructions'
import { runTool, toolResult } from '../result'
import { requestText } from '../summaries'
import { RequestIdInput } from './get-request'

export function registerStopRequest(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'svc_stop_request',
    {
      title: 'Stop a request',
      description: [
        'Stop watching for a table. A stopped request cannot be restarted; create a new one if the user changes their mind.',
        RULES.stopNeverCancels,
        'A booking already in flight is not undone. Stopping a stopped request returns it unchanged. Needs requests:write.',
      ].join(' '),
      inputSchema: toolArguments(RequestIdInput),
      outputSchema: RequestView,
      // Ends monitoring for good (so hosts should confirm with the user), but never cancels a
      // reservation; a second stop changes nothing.
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        requireScope(ctx.principal, 'requests:write')
        const { request_id } = argumentsOf(args)
        const view = await stopRequest(ctx.deps, request_id, { principal: ctx.principal })
        return toolResult(view, requestText(view))
      }),
  )
}
