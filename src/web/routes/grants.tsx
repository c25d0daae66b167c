// Disconnecting an OAuth-connected assistant from the assistants page: the grant and its
// tokens end, and the requests created through it move to `revoked`.
import { Hono } from 'hono'
import { currentUser } from '../../auth/session'
import { depsOf } from '../../requests/deps'
import { revokeGrant } from '../../requests/revoke'
import type { WebEnv } from '../render'

export const DISCONNECTED_NOTICE =
  'Assistant disconnected. It can no longer reach your account, and the requests it created are now revoked.'

/** Mounted by the assistants routes, behind their requireSession(). */
export const grantsRoutes = new Hono<WebEnv>()

grantsRoutes.post('/assistants/grants/:id/revoke', async (c) => {
  await revokeGrant(depsOf(c.env, c.req.url), currentUser(c).id, c.req.param('id'))
  return c.redirect('/assistants?disconnected=1', 303)
})
