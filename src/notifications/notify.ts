// Telling the user something, once: the in-app inbox (deduplicated by key in D1), then email
// and the webhook only for a notification that is new, so retries and repeated alarms never
// alert twice. The webhook runs in the background and never blocks the caller.
import type { Db } from '../db/client'
import { insertNotifications } from '../db/notifications'
import { findUserById } from '../db/users'
import { outboxMailer } from './mailer'
import { sendWebhook } from './webhook'
import { webhookPolicy } from './webhook-target'

export interface Alert {
  userId: string
  requestId: string | null
  /** The same key never alerts twice, across polls, retries and restarts. */
  dedupeKey: string
  kind: 'table_found' | 'booked' | 'booking_skipped' | 'reconnect_needed' | 'request_ended'
  title: string
  body: string
  link: string | null
}

/** What notifying needs: the database and the clock (a use case passes its own deps). */
export interface NotifyDeps {
  db: Db
  now: number
  /** Which webhook targets the deployment allows (webhook-target.ts). */
  env: Pick<Cloudflare.Env, 'LOCAL_DEVELOPMENT'>
}

/** Several alerts for one user (the tables of one poll): one insert, one user lookup; returns how many were new. */
export async function notifyUserOfAll(
  deps: NotifyDeps,
  userId: string,
  alerts: Alert[],
  background: (work: Promise<unknown>) => void,
): Promise<number> {
  const rows = alerts.map((a) => ({ ...a, userId, createdAt: deps.now }))
  const fresh = await insertNotifications(deps.db, rows)
  const sent = alerts.filter((a) => fresh.has(a.dedupeKey))
  if (sent.length === 0) return 0
  const user = await findUserById(deps.db, userId)
  if (!user) return sent.length
  for (const alert of sent) {
    if (user.emailAlerts) {
      const body = alert.link ? `${alert.body}\n\n${alert.link}` : alert.body
      await outboxMailer(deps.db, () => deps.now).send({ userId: user.id, to: user.email, subject: alert.title, body })
    }
    if (user.webhookUrl) {
      const message = { title: alert.title, text: alert.body, ...(alert.link ? { link: alert.link } : {}) }
      background(sendWebhook(user.webhookUrl, message, { policy: webhookPolicy(deps.env) }))
    }
  }
  return sent.length
}
