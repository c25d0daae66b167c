// Calendars: a reservation's .ics download (the signed-in owner), the calendar page where the
// feed is made or reset, and the feed itself (no session: its secret URL is the key).
import { type Context, Hono } from 'hono'
import { currentUser, requireSession } from '../../auth/session'
import { errorPage, pageNotFound } from '../../html/error-page'
import { renderPage, type WebEnv } from '../../html/render'
import { calendarFeedSince, currentFeedUrls, type FeedUrls, feedIcs, reservationIcs, resetCalendarFeed } from '../../reservations/calendar'
import { depsOf } from '../../runtime/deps'
import { CalendarPage } from '../pages/calendar'

function calendarResponse(ics: string, filename: string | null): Response {
  const headers: Record<string, string> = { 'Content-Type': 'text/calendar; charset=utf-8', 'Cache-Control': 'no-store' }
  if (filename) headers['Content-Disposition'] = `attachment; filename="${filename}"`
  return new Response(ics, { headers })
}

async function showCalendar(c: Context<WebEnv>, fresh?: FeedUrls) {
  const deps = depsOf(c.env)
  const userId = currentUser(c).id
  const [since, current] = await Promise.all([calendarFeedSince(deps, userId), fresh ? fresh : currentFeedUrls(deps, userId)])
  const page = <CalendarPage csrfToken={c.get('csrfToken')} since={since} fresh={fresh} current={current ?? undefined} />
  return renderPage(c, 'Calendar', page, fresh ? 201 : 200)
}

export const calendarRoutes = new Hono<WebEnv>()
calendarRoutes.use('/calendar', requireSession())
calendarRoutes.use('/calendar/feed', requireSession())
calendarRoutes.use('/reservations/*', requireSession())

calendarRoutes.get('/reservations/:file{[0-9]{1,15}\\.ics}', async (c) => {
  const id = Number(c.req.param('file').replace('.ics', ''))
  const ics = await reservationIcs(depsOf(c.env), currentUser(c).id, id)
  if (!ics) return errorPage(c, pageNotFound())
  return calendarResponse(ics, `tablewatch-reservation-${id}.ics`)
})

calendarRoutes.get('/calendar', (c) => showCalendar(c))

calendarRoutes.post('/calendar/feed', async (c) => {
  const urls = await resetCalendarFeed(depsOf(c.env), currentUser(c).id)
  // The URLs are in this response only; the page script then replaces the address bar's URL.
  return showCalendar(c, urls)
})

calendarRoutes.get('/calendar/feed/:file{[A-Za-z0-9_]{1,100}\\.ics}', async (c) => {
  const ics = await feedIcs(depsOf(c.env), c.req.param('file').replace('.ics', ''))
  if (!ics) return c.text('No calendar at this address. Make a new one on the Calendar page.', 404)
  return calendarResponse(ics, null)
})
