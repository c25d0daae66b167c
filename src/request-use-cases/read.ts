// Reading requests: one by id, or a principal's list, newest first, with an opaque cursor.
import type { Principal } from '../core/principal'
import { pageRequests } from '../db/requests'
import { AppError } from '../errors'
import { type Deps, requestObject } from '../runtime/deps'
import { decodeCursor, encodeCursor } from './cursor'
import { loadRequest, recordOf } from './load'
import type { RequestView } from './schemas'
import { viewFor, viewsFor } from './view'

export async function getRequest(deps: Deps, principal: Principal, requestId: string): Promise<RequestView> {
  return viewFor(deps, await loadRequest(deps, requestId, { principal }), principal)
}

interface Page {
  limit: number
  cursor?: string | undefined
}
type RequestPage = { requests: RequestView[]; next_cursor: string | null }

/** A token's (or grant's) requests, as the API and MCP list them. */
export function listRequests(deps: Deps, principal: Principal, page: Page): Promise<RequestPage> {
  return listFor(deps, { principalId: principal.principalId }, principal, page)
}

/** All of a user's requests, whatever created them, for the service's own pages. */
export function listRequestsForUser(deps: Deps, userId: string, page: Page): Promise<RequestPage> {
  return listFor(deps, { userId }, null, page)
}

async function listFor(
  deps: Deps,
  owner: { principalId: string } | { userId: string },
  viewer: Principal | null,
  page: Page,
): Promise<RequestPage> {
  const after = page.cursor ? decodeCursor(page.cursor) : null
  // The list schema (REST, MCP) and the pages refuse such a cursor before it gets here.
  if (page.cursor && !after) throw new AppError('invalid_request', 'This cursor is not one the service handed out.')
  const rows = await pageRequests(deps.db, owner, page.limit + 1, after)
  const shown = rows.slice(0, page.limit)
  const states = await Promise.all(shown.map((row) => requestObject(deps.env, row.id).ensure(recordOf(row))))
  const requests = await viewsFor(deps, states, viewer)
  const last = shown.at(-1)
  return { requests, next_cursor: rows.length > page.limit && last ? encodeCursor(last) : null }
}
