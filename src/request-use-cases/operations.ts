// The operation table: every operation an assistant can call, declared once with its scope,
// input and output schemas and use case. The REST routes (src/api/routes.ts) and the MCP
// tools (src/mcp/tools.ts) are generated from it, so a scope or a schema cannot differ between
// the two skins. Each skin adds only its presentation: a path and status, or a tool's wording.
import { z } from '@hono/zod-openapi'
import type { Principal } from '../core/principal'
import type { Scope } from '../core/scopes'
import { capabilitiesOf } from '../executors/executor-readiness'
import { getReservation } from '../reservations/reservation'
import { Reservation, ReservationId } from '../reservations/schema'
import type { Deps } from '../runtime/deps'
import { findRestaurants } from '../venues/restaurants'
import { RestaurantList, RestaurantQuery } from '../venues/schema'
import { createRequest } from './create'
import { previewRequest } from './preview'
import { getRequest, listRequests } from './read'
import {
  Capabilities,
  IdempotencyKey,
  ListQuery,
  PreviewResult,
  RequestId,
  RequestList,
  RequestSpec,
  RequestView,
  UpdateBody,
} from './schemas'
import { stopRequest } from './stop'
import { updateRequest } from './update'

/** A use case's answer; `replayed` when a retry with the same idempotency key got the first call's result. */
export interface Answer<T> {
  value: T
  replayed: boolean
}

export interface Operation<I extends z.ZodType = z.ZodType, O extends z.ZodObject = z.ZodObject> {
  /** The token must carry it, on every skin. */
  scope: Scope
  /** The whole input, as MCP takes it; REST reads the same fields from path, query, header and body. */
  input: I
  output: O
  run(deps: Deps, principal: Principal, input: z.output<I>): Promise<Answer<z.output<O>>>
}

const operation = <I extends z.ZodType, O extends z.ZodObject>(op: Operation<I, O>): Operation<I, O> => op
const fresh = async <T>(value: Promise<T>): Promise<Answer<T>> => ({ value: await value, replayed: false })

const RequestIdInput = z.strictObject({ request_id: RequestId })

export const OPERATIONS = {
  capabilities: operation({
    scope: 'requests:read',
    input: z.object({}),
    output: Capabilities,
    run: (deps, principal) => fresh(capabilitiesOf(deps, principal.userId)),
  }),
  find_restaurants: operation({
    scope: 'restaurants:read',
    input: RestaurantQuery,
    output: RestaurantList,
    run: (deps, _principal, { q }) => fresh(findRestaurants(deps, q).then((restaurants) => ({ restaurants }))),
  }),
  preview_request: operation({
    scope: 'requests:read',
    input: z.strictObject({ spec: RequestSpec }),
    output: PreviewResult,
    run: (deps, principal, { spec }) => fresh(previewRequest(deps, principal, spec)),
  }),
  create_request: operation({
    scope: 'requests:write',
    input: z.strictObject({ spec: RequestSpec, idempotency_key: IdempotencyKey }),
    output: RequestView,
    run: async (deps, principal, input) => {
      const { view, replayed } = await createRequest(deps, principal, { spec: input.spec, idempotencyKey: input.idempotency_key })
      return { value: view, replayed }
    },
  }),
  update_request: operation({
    scope: 'requests:write',
    input: z.strictObject({
      request_id: RequestId,
      revision: UpdateBody.shape.revision,
      spec: UpdateBody.shape.spec,
      idempotency_key: IdempotencyKey,
    }),
    output: RequestView,
    run: async (deps, principal, input) => {
      const { view, replayed } = await updateRequest(deps, principal, {
        requestId: input.request_id,
        body: { revision: input.revision, spec: input.spec },
        idempotencyKey: input.idempotency_key,
      })
      return { value: view, replayed }
    },
  }),
  get_request: operation({
    scope: 'requests:read',
    input: RequestIdInput,
    output: RequestView,
    run: (deps, principal, { request_id }) => fresh(getRequest(deps, principal, request_id)),
  }),
  list_requests: operation({
    scope: 'requests:read',
    input: ListQuery,
    output: RequestList,
    run: (deps, principal, page) => fresh(listRequests(deps, principal, page)),
  }),
  stop_request: operation({
    scope: 'requests:write',
    input: RequestIdInput,
    output: RequestView,
    run: (deps, principal, { request_id }) => fresh(stopRequest(deps, request_id, { principal })),
  }),
  get_reservation: operation({
    scope: 'reservations:read',
    input: z.strictObject({ reservation_id: ReservationId }),
    output: Reservation,
    run: (deps, principal, { reservation_id }) => fresh(getReservation(deps, principal, reservation_id)),
  }),
}

export type OperationName = keyof typeof OPERATIONS
