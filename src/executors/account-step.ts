// The user's account executor for one step of a request: where their calls go (cloud, device or
// offline) is looked at once per user and step, and the cloud session is opened once per user
// and step, so the offer check and the book call share it (and its renewal). A refused renewal
// drops the session and marks the connection for reconnecting.
import type { Deps } from '../runtime/deps'
import type { AccountContext, AccountExecutor, StepSession } from './account-executor'
import { type AccountRoute, accountRouteOf } from './account-route'
import { cloudAccount } from './cloud-account'
import { markReauthRequired } from './connection'
import { deviceAccount } from './device-account'
import { offlineAccount } from './offline-account'
import { userSession } from './platform-session'

const EXECUTORS: Record<AccountRoute, (c: AccountContext) => AccountExecutor> = {
  cloud: cloudAccount,
  device: deviceAccount,
  offline: offlineAccount,
}

export interface AccountStep {
  /** The user's executor, bound to the caller's deps; the route and the session are the step's. */
  accountOf(deps: Deps, userId: string): Promise<AccountExecutor>
}

export function accountStep(): AccountStep {
  const routes = perUser(accountRouteOf)
  const sessions = perUser(userSession)
  return {
    async accountOf(deps, userId) {
      const { route, everPaired } = await routes.get(deps, userId)
      const session: StepSession = {
        open: () => sessions.get(deps, userId),
        async rejected() {
          sessions.forget(userId)
          return markReauthRequired(deps, userId)
        },
      }
      return EXECUTORS[route]({ deps, userId, everPaired, session })
    },
  }
}

/** The first caller's answer for a user, shared by every later caller in the step (until forgotten). */
function perUser<T>(look: (deps: Deps, userId: string) => Promise<T>) {
  const known = new Map<string, Promise<T>>()
  return {
    get(deps: Deps, userId: string): Promise<T> {
      const answer = known.get(userId) ?? look(deps, userId)
      known.set(userId, answer)
      return answer
    },
    forget: (userId: string) => known.delete(userId),
  }
}
