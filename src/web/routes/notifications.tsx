// The inbox (mark one or all read) and the local-development outbox.
import { Hono } from 'hono'
import { currentUser, requireSession } from '../../auth/session'
import { depsOf } from '../../requests/deps'
import { inboxOf, markAllRead, markRead, outboxOf } from '../../requests/inbox'
import { errorPage, pageNotFound } from '../error-page'
import { NotificationsPage, OutboxPage } from '../pages/notifications'
import { renderPage, type WebEnv } from '../render'

/** The outbox shows emails only where no mail provider sends them (SHOW_OUTBOX = "on"). */
function outboxEnabled(env: Cloudflare.Env): boolean {
  return env.SHOW_OUTBOX === 'on'
}

export const notificationsRoutes = new Hono<WebEnv>()
for (const path of ['/notifications', '/notifications/*', '/outbox']) notificationsRoutes.use(path, requireSession())

notificationsRoutes.get('/notifications', async (c) => {
  const items = await inboxOf(depsOf(c.env, c.req.url), currentUser(c).id)
  return renderPage(
    c,
    'Notifications',
    <NotificationsPage items={items} csrfToken={c.get('csrfToken')} showOutbox={outboxEnabled(c.env)} />,
  )
})

notificationsRoutes.post('/notifications/read-all', async (c) => {
  await markAllRead(depsOf(c.env, c.req.url), currentUser(c).id)
  return c.redirect('/notifications', 303)
})

notificationsRoutes.post('/notifications/:id{[0-9]+}/read', async (c) => {
  await markRead(depsOf(c.env, c.req.url), currentUser(c).id, Number(c.req.param('id')))
  return c.redirect('/notifications', 303)
})

notificationsRoutes.get('/outbox', async (c) => {
  if (!outboxEnabled(c.env)) return errorPage(c, pageNotFound())
  const emails = await outboxOf(depsOf(c.env, c.req.url), currentUser(c).id)
  return renderPage(c, 'Outbox', <OutboxPage emails={emails} />)
})
