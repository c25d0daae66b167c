// Which client makes the calls that need the user's platform account: the service
// with the stored token ('cloud'), or the user's paired device with its own token ('device').
// A user who books from a device whose device is offline gets 'offline', never the cloud,
// unless they turned on the cloud fallback. The rules that decide whether to book stay in
// decide(); whichever client calls, it only fetches and books (the executors: account-executor.ts).
import { executionFactsOf } from '../db/paired-devices'
import { type Deps, deviceObject } from '../runtime/deps'

export type AccountRoute = 'cloud' | 'device' | 'offline'

export interface RouteFacts {
  route: AccountRoute
  /** The user ever paired a device: their venue-days may be watched by objects of their own. */
  everPaired: boolean
}

/** One query for every user; the device's object is asked only for a user who books from it. */
export async function accountRouteOf(deps: Deps, userId: string): Promise<RouteFacts> {
  const facts = await executionFactsOf(deps.db, userId)
  const { everPaired } = facts
  if (facts.execution === 'cloud') return { route: 'cloud', everPaired }
  const device = await deviceObject(deps.env, userId).status()
  if (device.connected && device.platform?.connected) return { route: 'device', everPaired }
  return { route: facts.cloudFallback ? 'cloud' : 'offline', everPaired }
}
