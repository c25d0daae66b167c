// The REST routes: one per operation of the table (src/request-use-cases/operations.ts). Scope, input
// and output schemas come from the operation; each route says only where the input travels
// and how it looks in the OpenAPI document.
import { z } from '@hono/zod-openapi'
import { requireKey } from '../request-use-cases/idempotency'
import { OPERATIONS, type OperationName } from '../request-use-cases/operations'
import { UpdateBody } from '../request-use-cases/schemas'
import {
  CAPABILITIES_EXAMPLE,
  LIST_EXAMPLE,
  PREVIEW_EXAMPLE,
  RESERVATION_EXAMPLE,
  RESTAURANTS_EXAMPLE,
  SPEC_EXAMPLE,
  STOPPED_EXAMPLE,
  UPDATE_EXAMPLE,
  UPDATED_EXAMPLE,
  VIEW_EXAMPLE,
} from './examples'
import { type RestRoute, restRouteOf } from './route'

const op = OPERATIONS

const RequestIdParams = z.object({
  request_id: op.get_request.input.shape.request_id.openapi({ param: { name: 'request_id', in: 'path' }, example: 'sr_3kq9x0abc' }),
})
const IdempotencyHeaders = z.object({
  // Optional to the validator so a missing key is the contract's `idempotency_key_required`.
  'idempotency-key': op.create_request.input.shape.idempotency_key.optional().openapi({
    param: { name: 'idempotency-key', in: 'header', required: true },
    description: 'Required. Reuse the same key when retrying the same body.',
  }),
})
const ReservationIdParams = z.object({
  // The path carries text: coerced, then the one reservation-id rule of the operation.
  reservation_id: z.coerce
    .number()
    .pipe(op.get_reservation.input.shape.reservation_id)
    .openapi({ param: { name: 'reservation_id', in: 'path' }, type: 'integer', example: 42 }),
})
const Spec = op.create_request.input.shape.spec

const requests = ['Requests']

export const ROUTES: Record<OperationName, RestRoute> = {
  capabilities: restRouteOf(op.capabilities, {
    method: 'get',
    path: '/capabilities',
    operationId: 'getCapabilities',
    example: CAPABILITIES_EXAMPLE,
    tags: ['Capabilities'],
    summary: 'Whether the service can watch and book for this user now',
    status: 200,
    description: 'Executor readiness',
    errors: [401, 403],
    request: {},
    input: () => ({}),
  }),
  find_restaurants: restRouteOf(op.find_restaurants, {
    method: 'get',
    path: '/restaurants',
    operationId: 'findRestaurants',
    example: RESTAURANTS_EXAMPLE,
    tags: ['Restaurants'],
    summary: 'Search restaurants by name for venue ids and time zones (no live availability)',
    status: 200,
    description: 'Up to 8 restaurants',
    errors: [401, 403],
    request: { query: op.find_restaurants.input },
    input: (parts) => parts.query(op.find_restaurants.input),
  }),
  preview_request: restRouteOf(op.preview_request, {
    method: 'post',
    path: '/requests/preview',
    operationId: 'previewRequest',
    example: PREVIEW_EXAMPLE,
    bodyExample: SPEC_EXAMPLE,
    tags: requests,
    summary: 'Validate a request spec and resolve its restaurants; creates nothing',
    status: 200,
    description: 'The spec is valid',
    errors: [401, 403, 409, 413, 415],
    request: { body: Spec },
    input: async (parts) => ({ spec: await parts.body(Spec) }),
  }),
  create_request: restRouteOf(op.create_request, {
    method: 'post',
    path: '/requests',
    operationId: 'createRequest',
    example: VIEW_EXAMPLE,
    bodyExample: SPEC_EXAMPLE,
    tags: requests,
    summary: 'Create a request (auto_book requests wait for the user to approve at action_url)',
    status: 201,
    description: 'Created (or replayed, with Idempotent-Replayed: true)',
    errors: [401, 403, 409, 413, 415, 429],
    request: { headers: IdempotencyHeaders, body: Spec },
    input: async (parts) => ({
      idempotency_key: requireKey(parts.headers(IdempotencyHeaders)['idempotency-key'], 'Send an Idempotency-Key header'),
      spec: await parts.body(Spec),
    }),
  }),
  list_requests: restRouteOf(op.list_requests, {
    method: 'get',
    path: '/requests',
    operationId: 'listRequests',
    example: LIST_EXAMPLE,
    tags: requests,
    summary: "This token's requests, newest first",
    status: 200,
    description: 'A page of requests',
    errors: [401, 403],
    request: { query: op.list_requests.input },
    input: (parts) => parts.query(op.list_requests.input),
  }),
  get_request: restRouteOf(op.get_request, {
    method: 'get',
    path: '/requests/{request_id}',
    operationId: 'getRequest',
    example: VIEW_EXAMPLE,
    tags: requests,
    summary: 'Read a request',
    status: 200,
    description: 'The request',
    errors: [401, 403, 404],
    request: { params: RequestIdParams },
    input: (parts) => parts.params(RequestIdParams),
  }),
  update_request: restRouteOf(op.update_request, {
    method: 'put',
    path: '/requests/{request_id}',
    operationId: 'updateRequest',
    example: UPDATED_EXAMPLE,
    bodyExample: UPDATE_EXAMPLE,
    tags: requests,
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
  }),
  stop_request: restRouteOf(op.stop_request, {
    method: 'post',
    path: '/requests/{request_id}/stop',
    operationId: 'stopRequest',
    example: STOPPED_EXAMPLE,
    tags: requests,
    summary: 'Stop monitoring; never cancels a reservation',
    status: 200,
    description: 'The stopped request',
    errors: [401, 403, 404, 409],
    request: { params: RequestIdParams },
    input: (parts) => parts.params(RequestIdParams),
  }),
  get_reservation: restRouteOf(op.get_reservation, {
    method: 'get',
    path: '/reservations/{reservation_id}',
    operationId: 'getReservation',
    example: RESERVATION_EXAMPLE,
    tags: ['Reservations'],
    summary: 'Read a reservation; it is real only when verified is true',
    status: 200,
    description: 'The reservation',
    errors: [401, 403, 404],
    request: { params: ReservationIdParams },
    input: (parts) => parts.params(ReservationIdParams),
  }),
}
