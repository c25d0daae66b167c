// The inbox (mark one or all read) and the local-development outbox.
import { Hono } from 'hono'
import { currentUser, requireSession } from '../../auth/session'
import { dbOf } from '../../db/client'
import { listNotifications, listOutbox, markAllNotificationsRead, markNotificationRead } from '../../db/notifications'
import { NotFoundPage } from '../pages/errors'
import { NotificationsPage, OutboxPage } from '../pages/notifications'
import { renderPage, type WebEnv } from '../render'

/** The outbox shows emails only where no mail provider sends them (SHOW_OUTBOX = "on"). */
function outboxEnabled(env: Cloudflare.Env): boolean {
  return env.SHOW_OUTBOX === 'on'
}

export const notificationsRoutes = new Hono<WebEnv>()
for (const path of ['/notifications', '/notifications/*', '/outbox']) notificationsRoutes.use(path, requireSession())

notificationsRoutes.get('/notifications', async (c) => {
  const items = await listNotifications(dbOf(c.env.DB), currentUser(c).id)
  return renderPage(
    c,
    'Notifications',
    <NotificationsPage items={items} csrfToken={c.get('csrfToken')} showOutbox={outboxEnabled(c.env)} />,
  )
})

notificationsRoutes.post('/notifications/read-all', async (c) => {
  await markAllNotificationsRead(dbOf(c.env.DB), currentUser(c).id, Date.now())
  return c.redirect('/notifications', 303)
})

notificationsRoutes.post('/notifications/:id{[0-9]+}/read', async (c) => {
  await markNotificationRead(dbOf(c.env.DB), currentUser(c).id, Number(c.req.param('id')), Date.now())
  return c.redirect('/notifications', 303)
})

notificationsRoutes.get('/outbox', async (c) => {
  if (!outboxEnabled(c.env)) return renderPage(c, 'Page not found', <NotFoundPage />, 404)
  const emails = await listOutbox(dbOf(c.env.DB), currentUser(c).id)
  return renderPage(c, 'Outbox', <OutboxPage emails={emails} />)
})
