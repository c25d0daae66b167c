// The home page: for a visitor, what the service does; for a signed-in diner, what is next
// (approvals waiting, what is watched with the tables it found, upcoming reservations), with the
// setup checklist until done.
import { Hono } from 'hono'
import { foundAtAGlance } from '../../alerts/inbox'
import { renderPage, type WebEnv } from '../../html/render'
import { listRequestsForUser } from '../../request-use-cases/read'
import { upcomingReservations } from '../../reservations/calendar'
import { depsOf } from '../../runtime/deps'
import { setupDone, setupProgress } from '../../setup/setup-progress'
import { restaurantsByIds } from '../../venues/restaurants'
import { DinerHome } from '../pages/diner-home'
import { HomePage } from '../pages/home'

/** Open requests the home page lists at most (the Requests page has them all). */
const HOME_REQUESTS = 50

export const homeRoutes = new Hono<WebEnv>()
homeRoutes.get('/', async (c) => {
  const user = c.get('user')
  const welcome = c.req.query('welcome') === '1'
  if (!user) return renderPage(c, 'Tablewatch', <HomePage user={null} setup={null} welcome={welcome} />)
  const deps = depsOf(c.env)
  const [progress, page, upcoming] = await Promise.all([
    setupProgress(deps, user.id),
    listRequestsForUser(deps, user.id, { limit: HOME_REQUESTS }),
    upcomingReservations(deps, user.id),
  ])
  const watched = page.requests.filter((r) => r.status === 'active' || r.status === 'awaiting_verification')
  const [venues, found] = await Promise.all([
    restaurantsByIds(deps, [...new Set(page.requests.flatMap((r) => r.venue_ids))]),
    foundAtAGlance(deps, user.id, watched),
  ])
  const setup = setupDone(progress) ? null : progress
  const home = (
    <DinerHome setup={setup} welcome={welcome} requests={page.requests} venues={venues} upcoming={upcoming} found={found} now={deps.now} />
  )
  return renderPage(c, 'Tablewatch', home)
})
