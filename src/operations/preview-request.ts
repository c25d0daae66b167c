// Checking a spec exactly as create would, resolving its restaurants; creates nothing.
import { z } from '@hono/zod-openapi'
import { previewRequest as preview } from '../request-use-cases/preview'
import { PreviewResult, RequestSpec } from '../request-use-cases/schemas'
import { PREVIEW_EXAMPLE, SPEC_EXAMPLE } from './examples'
import { fresh, operation } from './operation'
import { previewSummary } from './summaries'

export const previewRequest = operation({
  name: 'preview_request',
  scope: 'requests:read',
  input: z.strictObject({ spec: RequestSpec }),
  output: PreviewResult,
  run: (deps, principal, { spec }) => fresh(preview(deps, principal, spec)),
  rest: {
    method: 'post',
    path: '/requests/preview',
    operationId: 'previewRequest',
    example: PREVIEW_EXAMPLE,
    bodyExample: SPEC_EXAMPLE,
    tags: ['Requests'],
    summary: 'Validate a request spec and resolve its restaurants; creates nothing',
    status: 200,
    description: 'The spec is valid',
    errors: [401, 403, 409, 413, 415],
    request: { body: RequestSpec },
    input: async (parts) => ({ spec: await parts.body(RequestSpec) }),
    skill: { note: 'body: request spec; validates, resolves restaurants and time zone, reports `executor`; creates nothing' },
  },
  tool: {
    title: 'Preview a request',
    description:
      'Check a spec exactly as create would, resolve its restaurants and time zone, and say whether the service is ready to watch or book for this user (executor); creates nothing. Show the user the resolved restaurants, dates, time window and party size, and create only after the user confirms.',
    annotations: { readOnlyHint: true, openWorldHint: false },
    summary: previewSummary,
    specDescribedBy: 'svc_create_request',
  },
})
