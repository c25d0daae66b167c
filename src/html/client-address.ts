// Small shared pieces of the sign-in forms: who is asking (for the throttles) and how long to wait.
import type { Context } from 'hono'
import { addressKey } from '../lib/address-key'
import type { WebEnv } from './render'

/**
 * The client's address as Cloudflare saw it, as the throttles count it (an IPv6 address is its
 * /64, src/lib/address-key.ts); requests without one share a single budget.
 */
export function clientAddress(c: Context<WebEnv>): string {
  return addressKey(c.req.header('cf-connecting-ip'))
}

/** "Too many attempts, try again in N minutes." */
export function tryAgainIn(retryInMinutes: number, what = 'attempts'): string {
  return `Too many ${what}, try again in ${retryInMinutes} minute${retryInMinutes === 1 ? '' : 's'}.`
}
