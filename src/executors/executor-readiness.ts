// Whether the service can act on the platform for this user right now, and where: with the
// stored platform connection ('cloud') or through the user's paired device ('user_device',
// ready only while a device is connected with a working platform account).
import { eq } from 'drizzle-orm'
import { cloudRefusalsOf, type RefusedCall } from '../db/cloud-refusals'
import { type ExecutionSetting, executionSettingOf } from '../db/paired-devices'
import { platformConnections } from '../db/schema'
import type { DeviceStatus } from '../devices/device-object'
import { type Deps, deviceObject } from '../runtime/deps'
import { BOOKING_CALLS } from './cloud-refusals'
import { refreshConnection } from './connection'
import type { Executor, ExecutorMode } from './schema'

type ConnectionFacts = Pick<typeof platformConnections.$inferSelect, 'state' | 'paymentMethodId'> | undefined

/** Everything that decides the executor: the cloud connection, the user's choice, the device. */
export interface ExecutorFacts {
  connection: ConnectionFacts
  setting: ExecutionSetting
  /** Asked only when the user books from a device. */
  device: DeviceStatus | null
  /** The account calls the platform refused from the cloud (cloud-refusals.ts); absent: none known. */
  refusedFromCloud?: readonly RefusedCall[]
}

/** The facts about a user's platform connection and device that decide whether the service can act. */
export async function executorFactsOf(deps: Deps, userId: string): Promise<ExecutorFacts> {
  const [[connection], setting, refusals] = await Promise.all([
    deps.db
      .select({ state: platformConnections.state, paymentMethodId: platformConnections.paymentMethodId })
      .from(platformConnections)
      .where(eq(platformConnections.userId, userId)),
    executionSettingOf(deps.db, userId),
    cloudRefusalsOf(deps.db, userId),
  ])
  const device = setting.execution === 'user_device' ? await deviceObject(deps.env, userId).status() : null
  return { connection, setting, device, refusedFromCloud: refusals.map((r) => r.call) }
}

/**
 * `mode` narrows the answer: alert_only needs only a working connection, booking also needs
 * a payment method on file. Without a mode the answer is about booking. A user who books from a
 * device is never answered with the cloud unless they turned the fallback on and the device is
 * offline.
 */
export function executorOf(facts: ExecutorFacts, mode: ExecutorMode = 'auto_book'): Executor {
  const { device, setting } = facts
  if (setting.execution === 'user_device' && device) {
    const cloud = cloudExecutor(facts, mode)
    if (!device.connected)
      return setting.cloudFallback && cloud.ready ? cloud : { ready: false, reason: 'device_offline', execution: 'user_device' }
    if (!device.platform?.connected) return { ready: false, reason: 'resy_not_connected', execution: 'user_device' }
    if (mode === 'auto_book' && !device.platform.paymentMethodOnFile)
      return { ready: false, reason: 'payment_method_missing', execution: 'user_device' }
    return { ready: true, execution: 'user_device' }
  }
  return cloudExecutor(facts, mode)
}

/**
 * Booking from the cloud needs the details, the book call and the reservation list: one of them
 * refused from the cloud makes it `platform_refuses_cloud` (watching needs none of them). The
 * user may book from their device instead; the service never switches by itself.
 */
function cloudExecutor({ connection, refusedFromCloud = [] }: ExecutorFacts, mode: ExecutorMode): Executor {
  if (!connection) return { ready: false, reason: 'resy_not_connected', execution: 'cloud' }
  if (connection.state === 'reauth_required') return { ready: false, reason: 'resy_reauth_required', execution: 'cloud' }
  if (mode === 'auto_book' && refusedFromCloud.some((call) => BOOKING_CALLS.includes(call))) {
    return { ready: false, reason: 'platform_refuses_cloud', execution: 'cloud' }
  }
  if (mode === 'auto_book' && connection.paymentMethodId === null) {
    return { ready: false, reason: 'payment_method_missing', execution: 'cloud' }
  }
  return { ready: true, execution: 'cloud' }
}

export async function executorFor(deps: Deps, userId: string, mode: ExecutorMode = 'auto_book'): Promise<Executor> {
  return executorOf(await executorFactsOf(deps, userId), mode)
}

/** Capabilities: re-checks a stale platform connection first, so a rejected token shows. */
export async function capabilitiesOf(deps: Deps, userId: string): Promise<{ executor: Executor }> {
  await refreshConnection(deps, userId)
  return { executor: await executorFor(deps, userId) }
}
