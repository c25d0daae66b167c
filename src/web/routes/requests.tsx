// The approval page (the contract's action_url) and the request page, for the signed-in owner
// only: anyone else gets "not found", and no token can reach them.
import { type Context, Hono } from 'hono'
import { z } from 'zod'
import { alertPreferencesOf } from '../../alerts/alert-preferences'
import { foundTablesOf } from '../../alerts/found-tables'
import { alertsOfRequest } from '../../alerts/inbox'
import { approvalContext, recordApproved, recordSeen } from '../../approval/approval-context'
import { currentUser, requireSession } from '../../auth/session'
import { sandboxDemoEnabled } from '../../core/deployment'
import { openMatchingTable } from '../../demo/demo-table'
import { AppError } from '../../errors'
import { pageNumber, pageOf } from '../../html/components/pager'
import { errorPage, pageNotFound } from '../../html/error-page'
import { formatLocal } from '../../html/format'
import { ownerStartedNavigation } from '../../html/navigation'
import { renderPage, type WebEnv } from '../../html/render'
import type { RequestState } from '../../request-aggregate/state'
import { approveRequest } from '../../request-use-cases/approve'
import { isCursor } from '../../request-use-cases/cursor'
import { loadRequest } from '../../request-use-cases/load'
import { listRequestsForUser } from '../../request-use-cases/read'
import { stopRequest } from '../../request-use-cases/stop'
import { checkCadence, viewFor } from '../../request-use-cases/view'
import { type Deps, depsOf } from '../../runtime/deps'
import { restaurantsByIds } from '../../venues/restaurants'
import { ApprovePage, type ApprovePageProps } from '../pages/approve'
import { RequestPage } from '../pages/request'
import { RequestsPage } from '../pages/requests'

const NOTICES = {
  approved: 'Approved. Tablewatch is watching and books the first table that fits, within your limits.',
  // After approving, the page says one thing: what the request is now (a table may be booked at once).
  approved_booking: 'Approved. A matching table was found and is being booked; Tablewatch is verifying it with the platform.',
  approved_booked: 'Approved, booked and verified: the table is on your platform account.',
  declined: 'Declined. Nothing will be watched or booked for this request.',
  stopped: 'Stopped. Tablewatch no longer watches; a reservation, if there is one, stays as it is.',
  alerts: 'Switched to alerts only: Tablewatch books nothing for this request from now on, and tells you about each table.',
} as const

const DEMO_DONE = z.object({
  venue: z.string().max(200),
  day: z.iso.date(),
  time: z.string().regex(/^\d{2}:\d{2}$/),
  seating: z.string().max(60),
})

const revisionField = z.object({ revision: z.coerce.number().int().min(1) })

/** The owner's request, or null when it is not theirs (or does not exist). */
async function stateForUser(deps: Deps, requestId: string, userId: string): Promise<RequestState | null> {
  try {
    return await loadRequest(deps, requestId, { userId })
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
  state: RequestState,
  extra: Partial<ApprovePageProps>,
  status: 200 | 409 | 422 = 200,
) {
  const [request, context] = await Promise.all([viewFor(deps, state, null), approvalContext(deps, state)])
  const earlierVenues = context.earlier?.spec.venue_ids ?? []
  const venues = await restaurantsByIds(deps, [...new Set([...request.venue_ids, ...earlierVenues])])
  // What the owner sees now is what a later version is compared with; a view another site
  // opened is not the owner looking (src/html/navigation.ts), so it records nothing.
  if (request.status === 'needs_approval' && ownerStartedNavigation(c)) await recordSeen(deps, state)
  const page = <ApprovePage csrfToken={c.get('csrfToken')} request={request} venues={venues} context={context} {...extra} />
  return renderPage(c, 'Approve request', page, status)
}

export const requestsRoutes = new Hono<WebEnv>()
requestsRoutes.use('/requests', requireSession())
requestsRoutes.use('/requests/*', requireSession())

requestsRoutes.get('/requests', async (c) => {
  const deps = depsOf(c.env)
  const cursor = c.req.query('cursor')
  if (cursor !== undefined && !isCursor(cursor)) return c.redirect('/requests', 303) // not one we handed out: start over
  const page = await listRequestsForUser(deps, currentUser(c).id, { limit: 25, cursor })
  const venues = await restaurantsByIds(deps, [...new Set(page.requests.flatMap((r) => r.venue_ids))])
  return renderPage(c, 'Your requests', <RequestsPage requests={page.requests} venues={venues} nextCursor={page.next_cursor} />)
})

requestsRoutes.get('/requests/:id/approve', async (c) => {
  const deps = depsOf(c.env)
  const state = await stateForUser(deps, c.req.param('id'), currentUser(c).id)
  if (!state) return notFound(c)
  const linked = Number(c.req.query('revision'))
  const stale = state.status === 'needs_approval' && Number.isInteger(linked) && linked !== state.revision
  return showApproval(c, deps, state, { staleRevision: stale ? linked : undefined })
})

/** The approval form: approve the exact revision shown, then go to the request's page. */
async function approveAndGo(c: Context<WebEnv>) {
  const deps = depsOf(c.env)
  const userId = currentUser(c).id
  const requestId = c.req.param('id') ?? ''
  const form = revisionField.safeParse(await c.req.parseBody())
  try {
    if (!form.success) throw new AppError('invalid_request', 'This approval form is incomplete. Reload the page and try again.')
    await approveRequest(deps, { requestId, revision: form.data.revision, userId })
    await recordApproved(deps, requestId, form.data.revision)
  } catch (err) {
    if (!(err instanceof AppError)) throw err
    const state = await stateForUser(deps, requestId, userId)
    if (!state) return notFound(c)
    // Approving a revision that is no longer current shows the current one instead.
    if (err.code === 'revision_conflict' && form.success) return showApproval(c, deps, state, { staleRevision: form.data.revision }, 409)
    return showApproval(c, deps, state, { error: err.message }, err.status === 409 ? 409 : 422)
  }
  return c.redirect(`/requests/${encodeURIComponent(requestId)}?done=approved`, 303)
}

requestsRoutes.post('/requests/:id/approve', approveAndGo)

async function stopAndShow(c: Context<WebEnv>, done: 'declined' | 'stopped') {
  const deps = depsOf(c.env)
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

/** Restaurant-dates of found tables per page: a phone screen or two each. */
const FOUND_GROUPS_PER_PAGE = 5
const NOTICES_PER_PAGE = 10
const TRACE_PER_PAGE = 15

/** Notices that ask for approval say nothing true once the request moved on: the trace keeps the history. */
const ASKS_APPROVAL: readonly string[] = ['approval_needed', 'expiry_warning']

interface ShownExtra {
  notice?: string
  error?: string
  /** What the demo control opened (local development), worded once the request's zone is known. */
  opened?: z.infer<typeof DEMO_DONE>
}

async function showRequest(c: Context<WebEnv>, deps: Deps, requestId: string, extra: ShownExtra = {}) {
  const user = currentUser(c)
  const state = await stateForUser(deps, requestId, user.id)
  if (!state) return notFound(c)
  const request = await viewFor(deps, state, null)
  if (extra.notice === NOTICES.approved && state.status !== 'active') {
    const nowSays: Partial<Record<typeof state.status, string>> = {
      awaiting_verification: NOTICES.approved_booking,
      confirmed: NOTICES.approved_booked,
    }
    const said = nowSays[state.status]
    extra = { ...(extra.error ? { error: extra.error } : {}), ...(said ? { notice: said } : {}) }
  }
  if (extra.opened) extra = { ...extra, notice: demoNotice(extra.opened, state.spec.timezone) }
  const [venues, alerts, cadence, prefs] = await Promise.all([
    restaurantsByIds(deps, request.venue_ids),
    alertsOfRequest(deps, user.id, request.id),
    checkCadence(deps, state),
    alertPreferencesOf(deps, user.id),
  ])
  const found = foundTablesOf(alerts, { now: deps.now, timeZone: state.spec.timezone })
  const settled = state.status !== 'needs_approval'
  const notices = alerts.filter((a) => !a.groups && !(settled && ASKS_APPROVAL.includes(a.kind)))
  // The page shows the whole kept trace (the API view has the last 20), newest first.
  const trace = [...state.trace].reverse().map((t) => ({ at: new Date(t.at).toISOString(), message: t.message }))
  const open = c.req.query('trace') !== undefined ? 'trace' : c.req.query('notices') !== undefined ? 'notices' : undefined
  const page = (
    <RequestPage
      csrfToken={c.get('csrfToken')}
      now={deps.now}
      request={request}
      venues={venues}
      found={pageOf(found.groups, pageNumber(c.req.query('alerts')), FOUND_GROUPS_PER_PAGE)}
      summary={found.summary}
      notices={pageOf(notices, pageNumber(c.req.query('notices')), NOTICES_PER_PAGE)}
      trace={pageOf(trace, pageNumber(c.req.query('trace')), TRACE_PER_PAGE)}
      gapMinutes={prefs.alertGapMinutes}
      open={open}
      demoControl={sandboxDemoEnabled(c.env)}
      cadence={cadence}
      {...(extra.notice ? { notice: extra.notice } : {})}
      {...(extra.error ? { error: extra.error } : {})}
    />
  )
  return renderPage(c, request.title || 'Request', page, extra.error ? 409 : 200)
}

requestsRoutes.post('/requests/:id/decline', (c) => stopAndShow(c, 'declined'))
requestsRoutes.post('/requests/:id/stop', (c) => stopAndShow(c, 'stopped'))

/** What the demo control opened, in the page's words: the table in its restaurant's zone. */
function demoNotice(opened: z.infer<typeof DEMO_DONE>, timeZone: string): string {
  const { venue, day, time, seating } = opened
  return `The sandbox opened a free table at ${venue}, ${formatLocal(day, time, timeZone)} (${seating}). Tablewatch is checking now.`
}

requestsRoutes.get('/requests/:id', (c) => {
  const done = c.req.query('done')
  const opened = done === 'demo_table' && sandboxDemoEnabled(c.env) ? DEMO_DONE.safeParse(c.req.query()) : null
  const extra: ShownExtra =
    done === 'approved' || done === 'declined' || done === 'stopped' || done === 'alerts'
      ? { notice: NOTICES[done] }
      : opened?.success
        ? { opened: opened.data }
        : {}
  return showRequest(c, depsOf(c.env), c.req.param('id'), extra)
})

// Local development with the sandbox only: anywhere else this route answers "not found",
// as if it did not exist. The session and the form's CSRF token are checked like every form's.
requestsRoutes.post('/requests/:id/demo-table', async (c) => {
  if (!sandboxDemoEnabled(c.env)) return notFound(c)
  const deps = depsOf(c.env)
  const requestId = c.req.param('id')
  try {
    const opened = await openMatchingTable(deps, requestId, currentUser(c).id)
    const q = new URLSearchParams({
      done: 'demo_table',
      venue: opened.venueName,
      day: opened.day,
      time: opened.time,
      seating: opened.seating,
    })
    return c.redirect(`/requests/${encodeURIComponent(requestId)}?${q}`, 303)
  } catch (err) {
    if (!(err instanceof AppError)) throw err
    if (err.code === 'request_not_found' || err.code === 'not_found') return notFound(c)
    return showRequest(c, deps, requestId, { error: err.message })
  }
})
