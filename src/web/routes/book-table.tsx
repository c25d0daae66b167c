// "Book this table" (src/web/pages/book-table.tsx), for the signed-in owner of the request only:
// anyone else gets "not found". The page is a GET; the press is a POST with the form's CSRF token
// (checked for every form in src/web/app.ts), then the page again with its outcome.
import { type Context, Hono } from 'hono'
import { z } from 'zod'
import { currentUser, requireSession } from '../../auth/session'
import { AppError } from '../../errors'
import { errorPage, pageNotFound } from '../../html/error-page'
import { renderPage, type WebEnv } from '../../html/render'
import { bookPageOf, pressToBook } from '../../request-use-cases/press'
import { depsOf } from '../../runtime/deps'
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
