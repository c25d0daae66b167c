import type { McpServer } from '@modelcontextprotocol/server'
import { z } from 'zod'
import { requireScope } from '../../core/principal'
import { IdempotencyKey, RequestId, RequestSpec, RequestView, UpdateBody } from '../../requests/schemas'
import { updateRequest } from '../../requests/update'
import { argumentsOf, toolArguments } from '../arguments'
import type { ToolContext } from '../context'
import { RULES } from '../instructions'
import { runTool, toolResult } from '../result'
import { requestText } from '../summaries'

export const UpdateInput = z.strictObject({
  request_id: RequestId,
  revision: UpdateBody.shape.revision,
  spec: RequestSpec,
  idempotency_key: IdempotencyKey,
})

export function registerUpdateRequest(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'svc_update_request',
    {
      title: 'Update a request',
      description: [
        'Replace the whole spec of an open request. Send the revision from the latest view; a stale one fails with revision_conflict (read the request again).',
        "A changed auto_book request needs the user's approval again: it returns to needs_approval with a new action_url.",
        RULES.actionUrl,
        RULES.idempotency,
        'Needs requests:write.',
      ].join(' '),
      inputSchema: toolArguments(UpdateInput),
      outputSchema: RequestView,
      // It replaces the spec the user agreed to (destructive); retries with the same key apply once.
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        requireScope(ctx.principal, 'requests:write')
        const { request_id, revision, spec, idempotency_key } = argumentsOf(args)
        const { view } = await updateRequest(ctx.deps, ctx.principal, {
          requestId: request_id,
          body: { revision, spec },
          idempotencyKey: idempotency_key,
        })
        return toolResult(view, requestText(view))
      }),
  )
}
