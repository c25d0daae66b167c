// Where a user's account calls go during one step of a request: the route (cloud, device or
// offline) is looked at once per user and step, and the cloud session is opened once per user and
// step, so the offer check and the book call share it (and its renewal). A refused renewal drops
// the session and marks the connection for reconnecting.
import type { Deps } from '../runtime/deps'
import { accountRouteOf, type RouteFacts } from './account-route'
import { markReauthRequired } from './connection'
import { type UserSession, userSession } from './platform-session'

export interface AccountStep {
  routeOf(d: Deps, userId: string): Promise<RouteFacts>
  sessionOf(d: Deps, userId: string): Promise<UserSession | null>
  /** The platform refused the user's token and its renewal: ask the user to reconnect. */
  rejected(d: Deps, userId: string): Promise<number | null>
}

export function accountStep(): AccountStep {
  const sessions = new Map<string, Promise<UserSession | null>>()
  const routes = new Map<string, Promise<RouteFacts>>()
  return {
    sessionOf(d, userId) {
      const known = sessions.get(userId)
      if (known) return known
      const session = userSession(d, userId)
      sessions.set(userId, session)
      return session
    },
    routeOf(d, userId) {
      const known = routes.get(userId)
      if (known) return known
      const route = accountRouteOf(d, userId)
      routes.set(userId, route)
      return route
    },
    async rejected(d, userId) {
      sessions.delete(userId)
      return markReauthRequired(d, userId)
    },
  }
}
