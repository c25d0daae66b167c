// The inbox (paged; viewing it reads it) and the local-development outbox.
import { Hono } from 'hono'
import { outboxOf, viewInbox } from '../../alerts/inbox'
import { requestStatusesOf } from '../../alerts/notice-view'
import { currentUser, requireSession } from '../../auth/session'
import { pageNumber } from '../../html/components/pager'
import { errorPage, pageNotFound } from '../../html/error-page'
import { ownerStartedNavigation } from '../../html/navigation'
import { renderPage, type WebEnv } from '../../html/render'
import { depsOf } from '../../runtime/deps'
import { NotificationsPage, OutboxPage } from '../pages/notifications'

/** The outbox shows emails only where no mail provider sends them (SHOW_OUTBOX = "on"). */
function outboxEnabled(env: Cloudflare.Env): boolean {
  return env.SHOW_OUTBOX === 'on'
}

export const notificationsRoutes = new Hono<WebEnv>()
for (const path of ['/notifications', '/notifications/*', '/outbox']) notificationsRoutes.use(path, requireSession())

const PER_PAGE = 20

notificationsRoutes.get('/notifications', async (c) => {
  const page = pageNumber(c.req.query('page'))
  const inbox = await viewInbox(depsOf(c.env), currentUser(c).id, page, PER_PAGE, ownerStartedNavigation(c))
  const paged = { items: inbox.items, page, pages: Math.max(1, Math.ceil(inbox.total / PER_PAGE)), total: inbox.total }
  const requestIds = inbox.items.flatMap((i) => i.requestId ?? [])
  const statuses = await requestStatusesOf(depsOf(c.env), currentUser(c).id, requestIds)
  const shown = <NotificationsPage inbox={paged} statuses={statuses} showOutbox={outboxEnabled(c.env)} />
  return renderPage(c, 'Inbox', shown)
})

notificationsRoutes.get('/outbox', async (c) => {
  if (!outboxEnabled(c.env)) return errorPage(c, pageNotFound())
  const emails = await outboxOf(depsOf(c.env), currentUser(c).id)
  return renderPage(c, 'Outbox', <OutboxPage emails={emails} />)
})
