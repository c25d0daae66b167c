// The approval page (the contract's action_url) and the request page, for the signed-in owner
// only: anyone else gets "not found", and no token can reach them.
import { type Context, Hono } from 'hono'
import { z } from 'zod'
import { currentUser, requireSession } from '../../auth/session'
import { AppError } from '../../errors'
import { approveRequest } from '../../requests/approve'
import { isCursor } from '../../requests/cursor'
import { type Deps, depsOf } from '../../requests/deps'
import { alertsOfRequest } from '../../requests/inbox'
import { loadRequest } from '../../requests/load'
import { listRequestsForUser } from '../../requests/read'
import { restaurantsByIds } from '../../requests/restaurants'
import type { RequestView } from '../../requests/schemas'
import { stopRequest } from '../../requests/stop'
import { viewFor } from '../../requests/view'
import { errorPage, pageNotFound } from '../error-page'
import { ApprovePage, type ApprovePageProps } from '../pages/approve'
import { RequestPage } from '../pages/request'
import { RequestsPage } from '../pages/requests'
import { renderPage, type WebEnv } from '../render'

const NOTICES = {
  approved: 'Approved. Tablewatch is watching and books the first table that fits, within your limits.',
  declined: 'Declined. Nothing will be watched or booked for this request.',
  stopped: 'Stopped. Tablewatch no longer watches; a reservation, if there is one, stays as it is.',
} as const

const revisionField = z.object({ revision: z.coerce.number().int().min(1) })

/** The owner's full view of a request, or null when it is not theirs (or does not exist). */
async function requestForUser(deps: Deps, requestId: string, userId: string): Promise<RequestView | null> {
  try {
    return await viewFor(deps, await loadRequest(deps, requestId, { userId }), null)
  } catch (err) {
    if (err instanceof AppError && err.code === 'request_not_found') return null
    throw err
  }
}

function notFound(c: Context<WebEnv>) {
  return errorPage(c, pageNotFound())
}

async function showApproval(
  c: Context<WebEnv>,
  deps: Deps,
  request: RequestView,
  extra: Partial<ApprovePageProps>,
  status: 200 | 409 | 422 = 200,
) {
  const venues = await restaurantsByIds(deps, request.venue_ids)
  const page = <ApprovePage csrfToken={c.get('csrfToken')} request={request} venues={venues} {...extra} />
  return renderPage(c, 'Approve request', page, status)
}

export const requestsRoutes = new Hono<WebEnv>()
requestsRoutes.use('/requests', requireSession())
requestsRoutes.use('/requests/*', requireSession())

requestsRoutes.get('/requests', async (c) => {
  const deps = depsOf(c.env, c.req.url)
  const cursor = c.req.query('cursor')
  if (cursor !== undefined && !isCursor(cursor)) return c.redirect('/requests', 303) // not one we handed out: start over
  const page = await listRequestsForUser(deps, currentUser(c).id, { limit: 25, cursor })
  const venues = await restaurantsByIds(deps, [...new Set(page.requests.flatMap((r) => r.venue_ids))])
  return renderPage(c, 'Your requests', <RequestsPage requests={page.requests} venues={venues} nextCursor={page.next_cursor} />)
})

requestsRoutes.get('/requests/:id/approve', async (c) => {
  const deps = depsOf(c.env, c.req.url)
  const request = await requestForUser(deps, c.req.param('id'), currentUser(c).id)
  if (!request) return notFound(c)
  const linked = Number(c.req.query('revision'))
  const stale = request.status === 'needs_approval' && Number.isInteger(linked) && linked !== request.revision
  return showApproval(c, deps, request, { staleRevision: stale ? linked : undefined })
})

requestsRoutes.post('/requests/:id/approve', async (c) => {
  const deps = depsOf(c.env, c.req.url)
  const userId = currentUser(c).id
  const requestId = c.req.param('id')
  const form = revisionField.safeParse(await c.req.parseBody())
  try {
    if (!form.success) throw new AppError('invalid_request', 'This approval form is incomplete. Reload the page and try again.')
    await approveRequest(deps, { requestId, revision: form.data.revision, userId })
  } catch (err) {
    if (!(err instanceof AppError)) throw err
    const request = await requestForUser(deps, requestId, userId)
    if (!request) return notFound(c)
    // Approving a revision that is no longer current shows the current one instead.
    if (err.code === 'revision_conflict' && form.success) return showApproval(c, deps, request, { staleRevision: form.data.revision }, 409)
    return showApproval(c, deps, request, { error: err.message }, err.status === 409 ? 409 : 422)
  }
  return c.redirect(`/requests/${encodeURIComponent(requestId)}?done=approved`, 303)
})

async function stopAndShow(c: Context<WebEnv>, done: 'declined' | 'stopped') {
  const deps = depsOf(c.env, c.req.url)
  const requestId = c.req.param('id') ?? ''
  try {
    await stopRequest(deps, requestId, { userId: currentUser(c).id })
  } catch (err) {
    if (!(err instanceof AppError)) throw err
    if (err.code === 'request_not_found') return notFound(c)
    return showRequest(c, deps, requestId, { error: err.message })
  }
  return c.redirect(`/requests/${encodeURIComponent(requestId)}?done=${done}`, 303)
}

async function showRequest(c: Context<WebEnv>, deps: Deps, requestId: string, extra: { notice?: string; error?: string } = {}) {
  const user = currentUser(c)
  const request = await requestForUser(deps, requestId, user.id)
  if (!request) return notFound(c)
  const [venues, alerts] = await Promise.all([restaurantsByIds(deps, request.venue_ids), alertsOfRequest(deps, user.id, request.id)])
  const page = <RequestPage csrfToken={c.get('csrfToken')} request={request} venues={venues} alerts={alerts} {...extra} />
  return renderPage(c, request.title || 'Request', page, extra.error ? 409 : 200)
}

requestsRoutes.post('/requests/:id/decline', (c) => stopAndShow(c, 'declined'))
requestsRoutes.post('/requests/:id/stop', (c) => stopAndShow(c, 'stopped'))

requestsRoutes.get('/requests/:id', (c) => {
  const done = c.req.query('done')
  const notice = done === 'approved' || done === 'declined' || done === 'stopped' ? NOTICES[done] : undefined
  return showRequest(c, depsOf(c.env, c.req.url), c.req.param('id'), notice ? { notice } : {})
})
