// Reading one request of this token (or connection).
import { getRequest as read } from '../request-use-cases/read'
import { RequestView } from '../request-use-cases/schemas'
import { VIEW_EXAMPLE } from './examples'
import { fresh, operation } from './operation'
import { RequestIdInput, RequestIdParams } from './rest-params'
import { requestSummary } from './summaries'

export const getRequest = operation({
  name: 'get_request',
  scope: 'requests:read',
  input: RequestIdInput,
  output: RequestView,
  run: (deps, principal, { request_id }) => fresh(read(deps, principal, request_id)),
  rest: {
    method: 'get',
    path: '/requests/{request_id}',
    operationId: 'getRequest',
    example: VIEW_EXAMPLE,
    tags: ['Requests'],
    summary: 'Read a request',
    status: 200,
    description: 'The request',
    errors: [401, 403, 404],
    request: { params: RequestIdParams },
    input: (parts) => parts.params(RequestIdParams),
    skill: { note: 'the request view' },
  },
  tool: {
    title: 'Read a request',
    description: [
      'Read a request of this connection: status, revision, action_url while it needs approval, and reservations (with reservations:read).',
      'Never tell the user a table is booked until a reservation has verified: true; while awaiting_verification, say it is being verified.',
      'Check when the user asks, or at most every few minutes.',
    ].join(' '),
    annotations: { readOnlyHint: true, openWorldHint: false },
    summary: requestSummary,
  },
})
