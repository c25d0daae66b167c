// Telling the user something, once: every alert is kept in the in-app inbox (deduplicated by key
// in D1, channels/inbox.ts); only one that is new goes on to the channels the diner's settings
// turn on (channels/table.ts: email, the webhook, Web Push), so retries and repeated alarms never
// alert twice. A kind switched off in Settings, or a table alert beyond the user's daily cap,
// stays in the inbox only. Slow deliveries (the webhook, Web Push's retries) run in the
// background and never block the caller.
import { countNotificationsSince } from '../db/notifications'
import { findUserById } from '../db/users'
import type { Alert, Background, NotifyDeps } from './channels/channel'
import { keepInInbox } from './channels/inbox'
import { channelsFor } from './channels/table'
import { type AlertKind, switchOf } from './kinds'

export type { Alert, NotifyDeps } from './channels/channel'

const DAY_MS = 24 * 60 * 60 * 1000
/** Table alerts count against the daily cap; other notices never do. */
const TABLE_KINDS: AlertKind[] = ['table_found', 'booking_skipped']
const isTableAlert = (alert: Alert) => TABLE_KINDS.includes(alert.kind)

/** Several alerts for one user: one insert, one user lookup, at most one count; returns how many were new. */
export async function notifyUserOfAll(deps: NotifyDeps, userId: string, alerts: Alert[], background: Background): Promise<number> {
  const fresh = await keepInInbox(deps, userId, alerts)
  const sent = alerts.filter((a) => fresh.has(a.dedupeKey))
  if (sent.length === 0) return 0
  const user = await findUserById(deps.db, userId)
  if (!user) return sent.length
  const channels = channelsFor(user)
  // The day's table alerts before this batch (the count includes the batch, just kept): the
  // batch's own then count one by one, so the first ones within the cap still go out.
  const newTableAlerts = sent.filter(isTableAlert).length
  let tableAlertsToday =
    newTableAlerts > 0 ? (await countNotificationsSince(deps.db, user.id, TABLE_KINDS, deps.now - DAY_MS)) - newTableAlerts : 0
  for (const alert of sent) {
    // Every table alert counts, a switched-off one too: beyond the cap, the inbox alone keeps it.
    const position = isTableAlert(alert) ? ++tableAlertsToday : 0
    if (user.noticesOff.includes(switchOf(alert.kind))) continue
    if (position > user.dailyAlertCap) continue
    for (const channel of channels) await channel.send(deps, user, alert, background)
  }
  return sent.length
}

/** One alert; false when it was sent before. */
export async function notifyUser(deps: NotifyDeps, alert: Alert, background: Background): Promise<boolean> {
  return (await notifyUserOfAll(deps, alert.userId, [alert], background)) > 0
}
