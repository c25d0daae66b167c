// Telling the user something, once: the in-app inbox (deduplicated by key in D1), then email,
// the webhook and Web Push only for a notification that is new, so retries and repeated alarms never
// alert twice. The webhook runs in the background and never blocks the caller. A kind switched
// off in Settings, or a table alert beyond the user's daily cap, stays in the inbox only.
import type { Db } from '../db/client'
import { countNotificationsSince, insertNotifications } from '../db/notifications'
import { findUserById } from '../db/users'
import { withSignInHint } from '../lib/diner-sign-in-hint'
import { type AlertKind, switchOf } from './kinds'
import { mailerOf } from './mailer'
import { pushAlert } from './push/alert'
import { unsubscribeUrl } from './unsubscribe'
import { sendWebhook } from './webhook'
import { type AlertGroup, webhookPayload } from './webhook-body'
import { openWebhookConfig } from './webhook-config'
import { webhookPolicy } from './webhook-target'

export interface Alert {
  userId: string
  requestId: string | null
  /** The same key never alerts twice, across polls, retries and restarts. */
  dedupeKey: string
  kind: AlertKind
  title: string
  body: string
  /** The body in a few lines, for a small screen (push); the body when absent. */
  short?: string
  link: string | null
  /** A digest's tables by restaurant and date (every channel lists the same). */
  groups?: AlertGroup[]
}

/** What notifying needs: the database, the clock, the mailer's bindings and the links' origin. */
export interface NotifyDeps {
  env: Cloudflare.Env
  db: Db
  now: number
  baseUrl: string
  /** Web Push's fetch and wait between retries (notifications/push); tests pass a local push service. */
  pushFetcher?: (request: Request) => Promise<Response>
  pushSleep?: (ms: number) => Promise<void>
}

const DAY_MS = 24 * 60 * 60 * 1000
/** Table alerts count against the daily cap; other notices never do. */
const TABLE_KINDS: AlertKind[] = ['table_found', 'booking_skipped']

/** Several alerts for one user: one insert, one user lookup; returns how many were new. */
export async function notifyUserOfAll(
  deps: NotifyDeps,
  userId: string,
  alerts: Alert[],
  background: (work: Promise<unknown>) => void,
): Promise<number> {
  const rows = alerts.map((a) => ({
    userId,
    requestId: a.requestId,
    dedupeKey: a.dedupeKey,
    kind: a.kind,
    title: a.title,
    body: a.body,
    link: a.link,
    groups: a.groups ?? null,
    createdAt: deps.now,
  }))
  const fresh = await insertNotifications(deps.db, rows)
  const sent = alerts.filter((a) => fresh.has(a.dedupeKey))
  if (sent.length === 0) return 0
  const user = await findUserById(deps.db, userId)
  if (!user) return sent.length
  for (const alert of sent) {
    if (user.noticesOff.includes(switchOf(alert.kind))) continue
    if (TABLE_KINDS.includes(alert.kind)) {
      // This one is counted too: beyond the cap, the inbox alone keeps it.
      const today = await countNotificationsSince(deps.db, user.id, TABLE_KINDS, deps.now - DAY_MS)
      if (today > user.dailyAlertCap) continue
    }
    if (user.emailAlerts) {
      const link = alert.link ? await mailLink(deps, alert, alert.link) : null
      const body = link && !alert.groups ? `${alert.body}\n\n${link}` : alert.body
      await mailerOf(deps.env, deps.db, () => deps.now).send({
        userId: user.id,
        to: user.email,
        subject: alert.title,
        body,
        unsubscribeUrl: await unsubscribeUrl(deps.env, deps.baseUrl, user.id),
      })
    }
    const webhook = await openWebhookConfig(deps.env.PLATFORM_TOKEN_KEY, user.id, user.webhookUrl)
    if (webhook) {
      const payload = webhookPayload(user.webhookFormat, {
        kind: alert.kind,
        title: alert.title,
        text: alert.body,
        link: alert.link,
        requestId: alert.requestId,
        groups: alert.groups ?? [],
        sentAt: deps.now,
      })
      background(sendWebhook(webhook.url, payload, { policy: webhookPolicy(deps.env), signingSecret: webhook.secret }))
    }
    // Web Push to every browser where the user turned it on: the same alert, under the
    // same switches and daily cap as email; its retries run in the background like the webhook.
    background(
      pushAlert(deps, user.id, alert).catch((err) => console.error('push: sending failed', err instanceof Error ? err.name : 'error')),
    )
  }
  return sent.length
}

/** Notices that ask for approval, whose subject ("Approve: <the dinner>") names what is asked. */
const ASKS_APPROVAL: AlertKind[] = ['approval_needed', 'expiry_warning']

/**
 * An approval mail's link carries the dinner's words, sealed, so that sign-in can say what it is
 * for (src/lib/diner-sign-in-hint.ts): the subject after its "Approve: " (or expiry) prefix.
 */
function mailLink(deps: NotifyDeps, alert: Alert, link: string): Promise<string> {
  if (!ASKS_APPROVAL.includes(alert.kind)) return Promise.resolve(link)
  const colon = alert.title.indexOf(': ')
  const words = colon < 0 ? alert.title : alert.title.slice(colon + 2)
  return withSignInHint(deps.env.PLATFORM_TOKEN_KEY, link, words, deps.now)
}

/** One alert; false when it was sent before. */
export async function notifyUser(deps: NotifyDeps, alert: Alert, background: (work: Promise<unknown>) => void): Promise<boolean> {
  return (await notifyUserOfAll(deps, alert.userId, [alert], background)) > 0
}
