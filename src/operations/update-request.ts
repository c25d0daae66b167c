// Replacing the spec of an open request (optimistic locking on revision).
import { z } from '@hono/zod-openapi'
import { requireKey } from '../request-use-cases/idempotency'
import { IdempotencyKey, RequestId, RequestView, UpdateBody } from '../request-use-cases/schemas'
import { updateRequest as update } from '../request-use-cases/update'
import { approvalPage } from './approval'
import { UPDATE_EXAMPLE, UPDATED_EXAMPLE } from './examples'
import { operation } from './operation'
import { IdempotencyHeaders, RequestIdParams } from './rest-params'
import { requestSummary } from './summaries'

export const updateRequest = operation({
  name: 'update_request',
  scope: 'requests:write',
  input: z.strictObject({
    request_id: RequestId,
    revision: UpdateBody.shape.revision,
    spec: UpdateBody.shape.spec,
    idempotency_key: IdempotencyKey,
  }),
  output: RequestView,
  run: async (deps, principal, input) => {
    const { view, replayed } = await update(deps, principal, {
      requestId: input.request_id,
      body: { revision: input.revision, spec: input.spec },
      idempotencyKey: input.idempotency_key,
    })
    return { value: view, replayed }
  },
  rest: {
    method: 'put',
    path: '/requests/{request_id}',
    operationId: 'updateRequest',
    example: UPDATED_EXAMPLE,
    bodyExample: UPDATE_EXAMPLE,
    tags: ['Requests'],
    summary: 'Replace the spec of a request (optimistic locking on revision)',
    status: 200,
    description: 'The updated request',
    errors: [401, 403, 404, 409, 413, 415],
    // The body is the operation's revision and spec, under its own name in the document.
    request: { params: RequestIdParams, headers: IdempotencyHeaders, body: UpdateBody },
    input: async (parts) => ({
      ...parts.params(RequestIdParams),
      idempotency_key: requireKey(parts.headers(IdempotencyHeaders)['idempotency-key'], 'Send an Idempotency-Key header'),
      ...(await parts.body(UpdateBody)),
    }),
    skill: { note: 'header `Idempotency-Key` required; body `{ "revision": N, "spec": {…} }`' },
  },
  tool: {
    title: 'Update a request',
    description: [
      'Replace the whole spec of an open request. Send the revision of the latest view; a stale one fails with revision_conflict (read the request again).',
      'A changed auto_book request needs approval again: give the user its new action_url. Retry with the same idempotency_key.',
    ].join(' '),
    // It replaces the spec the user agreed to (destructive); retries with the same key apply once.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    summary: requestSummary,
    approval: approvalPage,
    specDescribedBy: 'svc_create_request',
  },
})
