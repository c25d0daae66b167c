// The inbox: every alert is kept there, once per dedupe key, whatever the settings say; what it
// keeps for the first time is what the other channels may send (so retries and repeated alarms
// never alert twice).
import { insertNotifications } from '../../db/notifications'
import type { Alert, NotifyDeps } from './channel'

/** Keeps the alerts in one insert; returns the dedupe keys that were new. */
export function keepInInbox(deps: Pick<NotifyDeps, 'db' | 'now'>, userId: string, alerts: Alert[]): Promise<Set<string>> {
  return insertNotifications(
    deps.db,
    alerts.map((a) => ({
      userId,
      requestId: a.requestId,
      dedupeKey: a.dedupeKey,
      kind: a.kind,
      title: a.title,
      body: a.body,
      link: a.link,
      groups: a.groups ?? null,
      createdAt: deps.now,
    })),
  )
}
