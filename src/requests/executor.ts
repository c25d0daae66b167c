// Whether the service can act on the platform for this user right now.
import { eq } from 'drizzle-orm'
import { platformConnections } from '../db/schema'
import { refreshConnection } from './connection'
import type { Deps } from './deps'
import type { Executor, RequestSpec } from './schemas'

type ConnectionFacts = Pick<typeof platformConnections.$inferSelect, 'state' | 'paymentMethodId'> | undefined

/** The facts about a user's platform connection that decide whether the service can act. */
export async function connectionFactsOf(deps: Deps, userId: string): Promise<ConnectionFacts> {
  const [connection] = await deps.db
    .select({ state: platformConnections.state, paymentMethodId: platformConnections.paymentMethodId })
    .from(platformConnections)
    .where(eq(platformConnections.userId, userId))
  return connection
}

/**
 * `mode` narrows the answer: alert_only needs only a working connection, booking also needs
 * a payment method on file. Without a mode the answer is about booking.
 */
export function executorOf(connection: ConnectionFacts, mode: RequestSpec['mode'] = 'auto_book'): Executor {
  if (!connection) return { ready: false, reason: 'resy_not_connected', execution: 'cloud' }
  if (connection.state === 'reauth_required') return { ready: false, reason: 'resy_reauth_required', execution: 'cloud' }
  if (mode === 'auto_book' && connection.paymentMethodId === null) {
    return { ready: false, reason: 'payment_method_missing', execution: 'cloud' }
  }
  return { ready: true, execution: 'cloud' }
}

export async function executorFor(deps: Deps, userId: string, mode: RequestSpec['mode'] = 'auto_book'): Promise<Executor> {
  return executorOf(await connectionFactsOf(deps, userId), mode)
}

/** Capabilities: re-checks a stale platform connection first, so a rejected token shows. */
export async function capabilitiesOf(deps: Deps, userId: string): Promise<{ executor: Executor }> {
  await refreshConnection(deps, userId)
  return { executor: await executorFor(deps, userId) }
}
