import type { McpServer } from '@modelcontextprotocol/server'
import { z } from 'zod'
import { requireScope } from '../../core/principal'
import { previewRequest } from '../../requests/preview'
import { PreviewResult, RequestSpec } from '../../requests/schemas'
import { argumentsOf, toolArguments } from '../arguments'
import type { ToolContext } from '../context'
import { RULES } from '../instructions'
import { runTool, toolResult } from '../result'
import { previewText } from '../summaries'

export const PreviewInput = z.strictObject({ spec: RequestSpec })

export function registerPreviewRequest(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'svc_preview_request',
    {
      title: 'Preview a request',
      description: [
        'Validate a request spec exactly as create would and resolve its restaurants and time zone; creates nothing.',
        'Also reports whether the service is ready to watch or book for this user (executor).',
        'expires_at needs a UTC offset, must be in the future, no later than the end of the last requested window, and before this connection ends.',
        RULES.confirmPreview,
        'Needs requests:read.',
      ].join(' '),
      inputSchema: toolArguments(PreviewInput),
      outputSchema: PreviewResult,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        requireScope(ctx.principal, 'requests:read')
        const { spec } = argumentsOf(args)
        const preview = await previewRequest(ctx.deps, ctx.principal, spec)
        return toolResult(preview, previewText(preview))
      }),
  )
}
