// Renders a page inside the layout with what every page needs: the user, the unread count
// for the header badge, and the CSRF token for the sign-out form.
import type { Context } from 'hono'
import { getCookie } from 'hono/cookie'
import type { Child } from 'hono/jsx'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { unreadCount } from '../alerts/inbox'
import { depsOf } from '../runtime/deps'
import { Layout } from './components/layout'
import { VIEWER_ZONE_COOKIE, ViewerZone, viewerZoneOf } from './format'

export type WebEnv = { Bindings: Cloudflare.Env }

export async function renderPage(
  c: Context<WebEnv>,
  title: string,
  content: Child,
  status: ContentfulStatusCode = 200,
  options: { unread?: boolean } = {},
): Promise<Response> {
  const user = c.get('user') ?? null
  const unread = user && options.unread !== false ? await unreadCount(depsOf(c.env), user.id) : 0
  // Pages of a signed-in user can hold private data (a new token once); never cache them.
  if (user) c.header('Cache-Control', 'no-store')
  return c.html(
    <ViewerZone.Provider value={viewerZoneOf(getCookie(c, VIEWER_ZONE_COOKIE), c.req.raw.cf?.timezone)}>
      <Layout title={title} path={new URL(c.req.url).pathname} user={user} unread={unread} csrfToken={c.get('csrfToken') ?? ''}>
        {content}
      </Layout>
    </ViewerZone.Provider>,
    status,
  )
}
