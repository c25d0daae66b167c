// Reading requests: one by id, or a principal's list, newest first, with an opaque cursor.
import type { Principal } from '../auth/principal'
import { pageRequests } from '../db/requests'
import { ValidationError } from '../errors'
import { requestObject, type Deps } from './deps'
import { loadRequest } from './load'
import type { RequestView } from './schemas'
import { recordOf } from '../db/requests'
import { viewFor } from './view'

export async function getRequest(deps: Deps, principal: Principal, requestId: string): Promise<RequestView> {
  return viewFor(deps, await loadRequest(deps, requestId, { principal }), principal)
}

interface Cursor {
  createdAt: number
  id: string
}

const encodeCursor = (c: Cursor) => btoa(JSON.stringify([c.createdAt, c.id])).replace(/=+$/, '')

function decodeCursor(value: string): Cursor {
  try {
    const [createdAt, id] = JSON.parse(atob(value)) as unknown[]
    if (typeof createdAt === 'number' && typeof id === 'string') return { createdAt, id }
  } catch {
    // fall through to the validation error
  }
  throw new ValidationError([{ loc: ['query', 'cursor'], msg: 'This cursor is not one the service handed out.', type: 'value_error' }])
}

export async function listRequests(
  deps: Deps,
  principal: Principal,
  page: { limit: number; cursor?: string | undefined },
): Promise<{ requests: RequestView[]; next_cursor: string | null }> {
  const after = page.cursor ? decodeCursor(page.cursor) : null
  const rows = await pageRequests(deps.db, principal.principalId, page.limit + 1, after)
  const shown = rows.slice(0, page.limit)
  const states = await Promise.all(shown.map((row) => requestObject(deps.env, row.id).ensure(recordOf(row))))
  const requests = await Promise.all(states.map((state) => viewFor(deps, state, principal)))
  const last = shown.at(-1)
  return { requests, next_cursor: rows.length > page.limit && last ? encodeCursor(last) : null }
}
