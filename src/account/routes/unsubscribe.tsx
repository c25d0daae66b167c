// /unsubscribe: the link in every alert email (RFC 8058 one-click). The signed token in the
// link is the only credential, so it needs no session and no CSRF token: it can only turn this
// one user's email alerts off. Mounted before the CSRF check (web/app.ts).
import { Hono } from 'hono'
import { z } from 'zod'
import { unsubscribeByLink } from '../../alerts/settings'
import { ErrorPage } from '../../html/errors'
import { readableForms } from '../../html/form-body'
import { renderPage, type WebEnv } from '../../html/render'
import { depsOf } from '../../runtime/deps'
import { UnsubscribedPage, UnsubscribePage } from '../pages/unsubscribe'

const link = z.object({ u: z.string().min(1).max(100), t: z.string().min(1).max(100) })

export const unsubscribeRoutes = new Hono<WebEnv>()
// Mounted before the app's own form reader (web/app.ts), so it reads its forms here: an
// unparsable body is the sender's mistake (the 422 page), not a 500 from parseBody below.
unsubscribeRoutes.use('/unsubscribe', readableForms())

const invalid = (c: Parameters<typeof renderPage>[0]) =>
  renderPage(
    c,
    'Unsubscribe',
    <ErrorPage title="This unsubscribe link is not valid" message="Sign in and turn email alerts off in Settings instead." />,
    400,
    { unread: false },
  )

unsubscribeRoutes.get('/unsubscribe', (c) => {
  const parsed = link.safeParse(c.req.query())
  if (!parsed.success) return invalid(c)
  return renderPage(c, 'Unsubscribe', <UnsubscribePage userId={parsed.data.u} token={parsed.data.t} />, 200, { unread: false })
})

// A mail client's one-click POST carries u and t in the URL; the page's button in the body.
unsubscribeRoutes.post('/unsubscribe', async (c) => {
  const body = await c.req.parseBody()
  const parsed = link.safeParse({ u: c.req.query('u') ?? body.u, t: c.req.query('t') ?? body.t })
  if (!parsed.success || !(await unsubscribeByLink(depsOf(c.env), parsed.data.u, parsed.data.t))) return invalid(c)
  return renderPage(c, 'Unsubscribed', <UnsubscribedPage />, 200, { unread: false })
})
