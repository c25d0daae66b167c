import type { McpServer } from '@modelcontextprotocol/server'
import { z } from 'zod'
import { requireScope } from '../../core/principal'
import { createRequest } from '../../requests/create'
import { IdempotencyKey, RequestSpec, RequestView } from '../../requests/schemas'
import { argumentsOf, toolArguments } from '../arguments'
import type { ToolContext } from '../context'
import { RULES } from '../instructions'
import { runTool, toolResult } from '../result'
import { requestText } from '../summaries'

export const CreateInput = z.strictObject({ spec: RequestSpec, idempotency_key: IdempotencyKey })

export function registerCreateRequest(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'svc_create_request',
    {
      title: 'Create a request',
      description: [
        'Create a request to watch for a table. alert_only starts watching at once (status active) and alerts the user on a match.',
        'auto_book starts as needs_approval with an action_url.',
        RULES.actionUrl,
        RULES.confirmPreview,
        RULES.oneRequestPerDinner,
        RULES.idempotency,
        'Needs requests:write.',
      ].join(' '),
      inputSchema: toolArguments(CreateInput),
      outputSchema: RequestView,
      // The same idempotency_key and spec return the same request: retries add nothing.
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        requireScope(ctx.principal, 'requests:write')
        const { spec, idempotency_key } = argumentsOf(args)
        const { view } = await createRequest(ctx.deps, ctx.principal, { spec, idempotencyKey: idempotency_key })
        return toolResult(view, requestText(view))
      }),
  )
}
