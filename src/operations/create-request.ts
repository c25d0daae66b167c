// Creating a request (auto_book ones wait for the user's approval at action_url).
import { z } from '@hono/zod-openapi'
import { createRequest as create } from '../request-use-cases/create'
import { requireKey } from '../request-use-cases/idempotency'
import { IdempotencyKey, RequestSpec, RequestView } from '../request-use-cases/schemas'
import { approvalPage } from './approval'
import { SPEC_EXAMPLE, VIEW_EXAMPLE } from './examples'
import { operation } from './operation'
import { IdempotencyHeaders } from './rest-params'
import { requestSummary } from './summaries'

export const createRequest = operation({
  name: 'create_request',
  scope: 'requests:write',
  input: z.strictObject({ spec: RequestSpec, idempotency_key: IdempotencyKey }),
  output: RequestView,
  run: async (deps, principal, input) => {
    const { view, replayed } = await create(deps, principal, { spec: input.spec, idempotencyKey: input.idempotency_key })
    return { value: view, replayed }
  },
  rest: {
    method: 'post',
    path: '/requests',
    operationId: 'createRequest',
    example: VIEW_EXAMPLE,
    bodyExample: SPEC_EXAMPLE,
    tags: ['Requests'],
    summary: 'Create a request (auto_book requests wait for the user to approve at action_url)',
    status: 201,
    description: 'Created (or replayed, with Idempotent-Replayed: true)',
    errors: [401, 403, 409, 413, 415, 429],
    request: { headers: IdempotencyHeaders, body: RequestSpec },
    input: async (parts) => ({
      idempotency_key: requireKey(parts.headers(IdempotencyHeaders)['idempotency-key'], 'Send an Idempotency-Key header'),
      spec: await parts.body(RequestSpec),
    }),
    skill: { note: 'header `Idempotency-Key` required; body: request spec; 201 with the request' },
  },
  tool: {
    title: 'Create a request',
    description: [
      'Create a request to watch for a table, once the user confirmed its preview. alert_only watches at once (active) and alerts the user on a match.',
      "auto_book starts as needs_approval with an action_url: always give the user that link. Only the user can approve, on the service's site; nothing is watched or booked until they do.",
      'One request per dinner: update or stop an open one instead. Retry with the same idempotency_key; a new spec needs a new key.',
    ].join(' '),
    // The same idempotency_key and spec return the same request: retries add nothing.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    summary: requestSummary,
    approval: approvalPage,
  },
})
