// The REST routes: one per operation of the table (src/operations/table.ts), in the order the
// OpenAPI document lists them.
import { REST_OPERATIONS } from '../operations/table'
import { type RestRoute, restRouteOf } from './route'

export const ROUTES: RestRoute[] = REST_OPERATIONS.map((op) => restRouteOf(op))
