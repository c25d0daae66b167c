// This token's (or connection's) requests, newest first, a page at a time.
import { listRequests as list } from '../request-use-cases/read'
import { ListQuery, RequestList } from '../request-use-cases/schemas'
import { LIST_EXAMPLE } from './examples'
import { fresh, operation } from './operation'
import { listSummary } from './summaries'

export const listRequests = operation({
  name: 'list_requests',
  scope: 'requests:read',
  input: ListQuery,
  output: RequestList,
  run: (deps, principal, page) => fresh(list(deps, principal, page)),
  rest: {
    method: 'get',
    path: '/requests',
    operationId: 'listRequests',
    example: LIST_EXAMPLE,
    tags: ['Requests'],
    summary: "This token's requests, newest first",
    status: 200,
    description: 'A page of requests',
    errors: [401, 403],
    request: { query: ListQuery },
    input: (parts) => parts.query(ListQuery),
    skill: { note: 'newest first; `?limit=` (max 100) and `?cursor=`; body `{ "requests": [...], "next_cursor": … }`' },
  },
  tool: {
    title: 'List requests',
    description:
      "This connection's requests, newest first, earlier conversations' included; next_cursor reads on. Check it before creating: one request per dinner.",
    annotations: { readOnlyHint: true, openWorldHint: false },
    summary: listSummary,
  },
})
