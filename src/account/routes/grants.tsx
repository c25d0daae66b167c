// Disconnecting an OAuth-connected assistant from the assistants page: the grant and its
// tokens end, and the requests created through it move to `revoked`.
import { Hono } from 'hono'
import { revokeGrant } from '../../access/revoke'
import { currentUser } from '../../auth/session'
import type { WebEnv } from '../../html/render'
import { depsOf } from '../../runtime/deps'
import { showAssistants } from './assistants-view'

export const DISCONNECTED_NOTICE =
  'Assistant disconnected. It can no longer reach your account, and the requests it created are now revoked.'

const CONNECTION_NOT_FOUND = 'That connection is not one of yours (or was already disconnected), so nothing changed.'

/** Mounted by the assistants routes, behind their requireSession(). */
export const grantsRoutes = new Hono<WebEnv>()

grantsRoutes.post('/assistants/grants/:id/revoke', async (c) => {
  const revoked = await revokeGrant(depsOf(c.env), currentUser(c).id, c.req.param('id'))
  if (!revoked) return showAssistants(c, { error: CONNECTION_NOT_FOUND }, 404)
  return c.redirect('/assistants?disconnected=1', 303)
})
