// What a paired device coming and going means for its user's requests. Only a user
// who chose to book from their device is affected: their requests pause while no device is
// connected (unless the user allowed the cloud fallback) and resume when one is back. After 10
// minutes offline the user gets one health alert.
import { executionSettingOf } from '../db/paired-devices'
import { openRequestIdsOf } from '../db/requests'
import { notifyUserOfAll } from '../notifications/notify'
import { depsOf, requestObject } from '../runtime/deps'
import { wakeRequestsOf } from '../runtime/open-requests'

export async function deviceOnline(env: Cloudflare.Env, userId: string, now: number): Promise<void> {
  const deps = depsOf(env, now)
  const setting = await executionSettingOf(deps.db, userId)
  if (setting.execution === 'user_device') await wakeRequestsOf(deps, userId)
}

export async function deviceOffline(env: Cloudflare.Env, userId: string, now: number, what: 'changed' | 'alert'): Promise<void> {
  const deps = depsOf(env, now)
  const setting = await executionSettingOf(deps.db, userId)
  if (setting.execution !== 'user_device') return
  if (what === 'alert') {
    const webhooks: Promise<unknown>[] = []
    await notifyUserOfAll(
      deps,
      userId,
      [
        {
          userId,
          requestId: null,
          dedupeKey: `device_offline:${userId}:${Math.floor(now / 60_000)}`,
          kind: 'device_offline',
          title: 'Your paired device is offline',
          body: setting.cloudFallback
            ? 'Your paired device has been offline for 10 minutes. The cloud connection does its work meanwhile, as you allowed in Settings.'
            : 'Your paired device has been offline for 10 minutes, so watching and booking are paused. Start the device program again, or turn on the cloud fallback in Settings.',
          link: `${deps.baseUrl}/settings`,
        },
      ],
      (work) => webhooks.push(work),
    )
    await Promise.allSettled(webhooks)
    return
  }
  if (setting.cloudFallback) return
  const ids = await openRequestIdsOf(deps.db, { userId })
  await Promise.all(ids.map((id) => requestObject(env, id).deviceOffline()))
}
