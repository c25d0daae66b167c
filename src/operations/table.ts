// The operation table: every operation an assistant can call, each declared in a file of its own
// (operation.ts says what one holds). A new operation is its file and one line in each list below.
import { capabilities } from './capabilities'
import { createRequest } from './create-request'
import { findRestaurants } from './find-restaurants'
import { getRequest } from './get-request'
import { getReservation } from './get-reservation'
import { listRequests } from './list-requests'
import type { Operation } from './operation'
import { previewRequest } from './preview-request'
import { stopRequest } from './stop-request'
import { updateRequest } from './update-request'

/** By name, in the order MCP's tools/list shows them (the order an assistant uses them in). */
export const OPERATIONS = {
  find_restaurants: findRestaurants,
  preview_request: previewRequest,
  create_request: createRequest,
  update_request: updateRequest,
  get_request: getRequest,
  list_requests: listRequests,
  stop_request: stopRequest,
  get_reservation: getReservation,
  capabilities,
}

export type OperationName = keyof typeof OPERATIONS

/** Where each route stands in the REST routes, the OpenAPI document and the skill file's table: by path. */
const REST_POSITION: Record<OperationName, number> = {
  capabilities: 0,
  find_restaurants: 1,
  preview_request: 2,
  create_request: 3,
  list_requests: 4,
  get_request: 5,
  update_request: 6,
  stop_request: 7,
  get_reservation: 8,
}

/** Every operation, as the skins loop over it (the widest type: each one's own is in OPERATIONS). */
export const ALL_OPERATIONS: Operation[] = Object.values(OPERATIONS) as Operation[]

/** The operations in REST order. */
export const REST_OPERATIONS: Operation[] = [...ALL_OPERATIONS].sort(
  (a, b) => REST_POSITION[a.name as OperationName] - REST_POSITION[b.name as OperationName],
)
