import { createRoute, z } from '@hono/zod-openapi'
import {
  IdempotencyKey,
  ListQuery,
  PreviewResult,
  RequestId,
  RequestList,
  RequestSpec,
  RequestView,
  UpdateBody,
} from '../../requests/schemas'
import { jsonBody, scope } from '../middleware'
import { errorResponses, json, security } from '../responses'

const RequestIdParams = z.object({
  request_id: RequestId.openapi({ param: { name: 'request_id', in: 'path' }, example: 'sr_3kq9x0abc' }),
})
const IdempotencyHeaders = z.object({
  'idempotency-key': IdempotencyKey.optional().openapi({
    param: { name: 'idempotency-key', in: 'header', required: true },
    description: 'Required. Reuse the same key when retrying the same body.',
  }),
})
const tags = ['Requests']

export const previewRoute = createRoute({
  method: 'post',
  path: '/requests/preview',
  tags,
  summary: 'Validate a request spec and resolve its restaurants; creates nothing',
  security,
  middleware: [scope('requests:read'), jsonBody] as const,
  request: { body: { required: true, content: json(RequestSpec) } },
  responses: {
    200: { description: 'The spec is valid', content: json(PreviewResult) },
    ...errorResponses(401, 403, 409, 413, 415),
  },
})

export const createRequestRoute = createRoute({
  method: 'post',
  path: '/requests',
  tags,
  summary: 'Create a request (auto_book requests wait for the user to approve at action_url)',
  security,
  middleware: [scope('requests:write'), jsonBody] as const,
  request: { headers: IdempotencyHeaders, body: { required: true, content: json(RequestSpec) } },
  responses: {
    201: { description: 'Created (or replayed, with Idempotent-Replayed: true)', content: json(RequestView) },
    ...errorResponses(401, 403, 409, 413, 415, 429),
  },
})

export const listRequestsRoute = createRoute({
  method: 'get',
  path: '/requests',
  tags,
  summary: "This token's requests, newest first",
  security,
  middleware: [scope('requests:read')] as const,
  request: { query: ListQuery },
  responses: {
    200: { description: 'A page of requests', content: json(RequestList) },
    ...errorResponses(401, 403),
  },
})

export const getRequestRoute = createRoute({
  method: 'get',
  path: '/requests/{request_id}',
  tags,
  summary: 'Read a request',
  security,
  middleware: [scope('requests:read')] as const,
  request: { params: RequestIdParams },
  responses: {
    200: { description: 'The request', content: json(RequestView) },
    ...errorResponses(401, 403, 404),
  },
})

export const updateRequestRoute = createRoute({
  method: 'put',
  path: '/requests/{request_id}',
  tags,
  summary: 'Replace the spec of a request (optimistic locking on revision)',
  security,
  middleware: [scope('requests:write'), jsonBody] as const,
  request: { params: RequestIdParams, headers: IdempotencyHeaders, body: { required: true, content: json(UpdateBody) } },
  responses: {
    200: { description: 'The updated request', content: json(RequestView) },
    ...errorResponses(401, 403, 404, 409, 413, 415),
  },
})

export const stopRequestRoute = createRoute({
  method: 'post',
  path: '/requests/{request_id}/stop',
  tags,
  summary: 'Stop monitoring; never cancels a reservation',
  security,
  middleware: [scope('requests:write')] as const,
  request: { params: RequestIdParams },
  responses: {
    200: { description: 'The stopped request', content: json(RequestView) },
    ...errorResponses(401, 403, 404, 409),
  },
})
