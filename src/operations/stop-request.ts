// Stopping a request for good; it never cancels a reservation.
import { RequestView } from '../request-use-cases/schemas'
import { stopRequest as stop } from '../request-use-cases/stop'
import { STOPPED_EXAMPLE } from './examples'
import { fresh, operation } from './operation'
import { RequestIdInput, RequestIdParams } from './rest-params'
import { requestSummary } from './summaries'

export const stopRequest = operation({
  name: 'stop_request',
  scope: 'requests:write',
  input: RequestIdInput,
  output: RequestView,
  run: (deps, principal, { request_id }) => fresh(stop(deps, request_id, { principal })),
  rest: {
    method: 'post',
    path: '/requests/{request_id}/stop',
    operationId: 'stopRequest',
    example: STOPPED_EXAMPLE,
    tags: ['Requests'],
    summary: 'Stop monitoring; never cancels a reservation',
    status: 200,
    description: 'The stopped request',
    errors: [401, 403, 404, 409],
    request: { params: RequestIdParams },
    input: (parts) => parts.params(RequestIdParams),
    skill: { note: 'no body; ends monitoring only' },
  },
  tool: {
    title: 'Stop a request',
    description:
      "Stop watching for a table, for good (create a new request if the user changes their mind). It never cancels a reservation: that is done on the platform's own account page. A booking in flight is not undone; stopping again changes nothing.",
    // Ends monitoring for good (so hosts should confirm with the user), but never cancels a
    // reservation; a second stop changes nothing.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    summary: requestSummary,
  },
})
