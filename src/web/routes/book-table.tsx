// "Book this table" (src/web/pages/book-table.tsx), for the signed-in owner of the request only:
// anyone else gets "not found". The page is a GET; the press is a POST with the form's CSRF token
// (checked for every form in src/web/app.ts), then the page again with its outcome.
import { type Context, Hono } from 'hono'
import { z } from 'zod'
import { currentUser, requireSession } from '../../auth/session'
import { AppError } from '../../errors'
import { errorPage, pageNotFound } from '../../html/error-page'
import { renderPage, type WebEnv } from '../../html/render'
import { loadRequest } from '../../request-use-cases/load'
import { bookPageOf, pressToBook } from '../../request-use-cases/press'
import { switchMode } from '../../request-use-cases/switch-mode'
import { viewFor } from '../../request-use-cases/view'
import { depsOf } from '../../runtime/deps'
import { restaurantsByIds } from '../../venues/restaurants'
import { BookForMePage } from '../pages/book-for-me'
import { BookTablePage } from '../pages/book-table'

const pressForm = z.object({
  table: z.string().min(1).max(300),
  terms: z.string().regex(/^[0-9a-f]{8}$/),
  accepted_fee: z.coerce.number().min(0).max(1000).optional(),
})

/** While the press is carried out the page asks again this often (the browser's Refresh header). */
const REFRESH_SECONDS = 2

export const bookTableRoutes = new Hono<WebEnv>()
bookTableRoutes.use('/requests/:id/book', requireSession())
bookTableRoutes.use('/requests/:id/book-for-me', requireSession())
bookTableRoutes.use('/requests/:id/mode', requireSession())

async function showBookPage(c: Context<WebEnv>, requestId: string, slotKey: string) {
  const deps = depsOf(c.env)
  try {
    const page = await bookPageOf(deps, { requestId, userId: currentUser(c).id, slotKey })
    const outcome = page.press?.outcome
    if (outcome === 'checking' || outcome === 'booking') c.header('Refresh', String(REFRESH_SECONDS))
    return renderPage(c, 'Book this table', <BookTablePage csrfToken={c.get('csrfToken')} {...page} />)
  } catch (err) {
    if (err instanceof AppError && err.code === 'request_not_found') return errorPage(c, pageNotFound())
    throw err
  }
}

bookTableRoutes.get('/requests/:id/book', (c) => showBookPage(c, c.req.param('id'), c.req.query('table') ?? ''))

bookTableRoutes.post('/requests/:id/book', async (c) => {
  const requestId = c.req.param('id')
  const form = pressForm.safeParse(await c.req.parseBody())
  if (!form.success) {
    throw new AppError('invalid_request', 'This booking form is incomplete. Reload the page and press again.')
  }
  const deps = depsOf(c.env)
  const { table, terms, accepted_fee } = form.data
  try {
    await pressToBook(deps, { requestId, userId: currentUser(c).id, slotKey: table, terms, acceptedFee: accepted_fee ?? null })
  } catch (err) {
    if (err instanceof AppError && err.code === 'request_not_found') return errorPage(c, pageNotFound())
    throw err
  }
  return c.redirect(`/requests/${encodeURIComponent(requestId)}/book?${new URLSearchParams({ table })}`, 303)
})

const modeForm = z.object({ revision: z.coerce.number().int().min(1), mode: z.enum(['alert_only', 'auto_book']) })

/** The approval of the exact spec, for switching to "book for me" (src/web/pages/book-for-me.tsx). */
async function showBookForMe(c: Context<WebEnv>, requestId: string, error?: string) {
  const deps = depsOf(c.env)
  try {
    const state = await loadRequest(deps, requestId, { userId: currentUser(c).id })
    const request = await viewFor(deps, state, null)
    const venues = await restaurantsByIds(deps, request.venue_ids)
    const page = <BookForMePage csrfToken={c.get('csrfToken')} request={request} venues={venues} error={error} />
    return renderPage(c, 'Book for me', page, error ? 409 : 200)
  } catch (err) {
    if (err instanceof AppError && err.code === 'request_not_found') return errorPage(c, pageNotFound())
    throw err
  }
}

bookTableRoutes.get('/requests/:id/book-for-me', (c) => showBookForMe(c, c.req.param('id')))

bookTableRoutes.post('/requests/:id/mode', async (c) => {
  const requestId = c.req.param('id')
  const form = modeForm.safeParse(await c.req.parseBody())
  if (!form.success) throw new AppError('invalid_request', 'This form is incomplete. Reload the page and try again.')
  try {
    await switchMode(depsOf(c.env), { requestId, userId: currentUser(c).id, ...form.data })
  } catch (err) {
    if (!(err instanceof AppError)) throw err
    if (err.code === 'request_not_found') return errorPage(c, pageNotFound())
    return showBookForMe(c, requestId, err.message)
  }
  return c.redirect(`/requests/${encodeURIComponent(requestId)}?done=${form.data.mode === 'auto_book' ? 'approved' : 'alerts'}`, 303)
})
