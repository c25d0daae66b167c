// Sends one message to every browser where the user turned push on. A subscription the push
// service no longer knows (404/410) is removed; any other failure, after send.ts's retries, is
// recorded on the subscription (the settings page shows it) and logged by subscription id only.
import type { Db } from '../../db/client'
import {
  dropPushSubscription,
  listPushSubscriptions,
  markPushDelivered,
  markPushFailed,
  type PushSubscriptionRow,
} from '../../db/push-subscriptions'
import { open } from '../../lib/secret-box'
import type { PushMessage } from './message'
import { type SendOptions, sendPush } from './send'
import type { StoredSubscription } from './subscription'
import type { Vapid } from './vapid'

export interface PushDeps {
  env: Pick<Cloudflare.Env, 'PLATFORM_TOKEN_KEY'>
  db: Db
  now: number
}

export interface PushReport {
  delivered: number
  dropped: number
  failed: number
}

async function subscriptionOf(env: PushDeps['env'], row: PushSubscriptionRow): Promise<StoredSubscription | null> {
  try {
    return JSON.parse(await open(env.PLATFORM_TOKEN_KEY, { ciphertext: row.sealed, iv: row.iv }, row.userId)) as StoredSubscription
  } catch {
    return null
  }
}

export async function pushToUser(
  deps: PushDeps,
  vapid: Vapid,
  userId: string,
  message: PushMessage,
  options: SendOptions,
): Promise<PushReport> {
  const report: PushReport = { delivered: 0, dropped: 0, failed: 0 }
  const rows = await listPushSubscriptions(deps.db, userId)
  await Promise.all(
    rows.map(async (row) => {
      const subscription = await subscriptionOf(deps.env, row)
      const outcome = subscription
        ? await sendPush(vapid, subscription, message, options)
        : ({ kind: 'failed', failure: 'the stored subscription could not be read; turn push on again in this browser' } as const)
      if (outcome.kind === 'delivered') {
        report.delivered++
        await markPushDelivered(deps.db, row.id, deps.now)
      } else if (outcome.kind === 'gone') {
        report.dropped++
        await dropPushSubscription(deps.db, row.id)
        console.log(`push: subscription ${row.id} removed, the push service answered ${outcome.status}`)
      } else {
        report.failed++
        await markPushFailed(deps.db, row.id, deps.now, outcome.failure)
        console.warn(`push: delivery to subscription ${row.id} failed: ${outcome.failure}`)
      }
    }),
  )
  return report
}
