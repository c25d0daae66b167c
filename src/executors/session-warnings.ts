// Warning diners whose platform session ends by itself (no refresh token, or one whose stated
// expiry comes: session-end.ts): 7 days and 1 day before its end, in the inbox, by email and push, under the "health" switch, each linking to
// the reconnect form in Settings. Run by the hourly cron (src/index.ts): no object holds a
// session's end, the connection row does, so a scan of the rows needs nothing armed at connect
// time, survives restarts, and a second run in the same hour finds the warnings told already
// (the inbox's dedupe key), so each warning goes out once. docs/decisions/platform-account.md.

import { reconnectUrl } from '../core/reconnect-link'
import { sessionsEndingBy } from '../db/connections'
import { type Alert, notifyUserOfAll } from '../notifications/notify'
import type { Deps } from '../runtime/deps'
import { dueWarning, FIRST_WARNING_MS, sessionEndOf, timeLeftWords, type WarningStage, warningKey } from './session-end'

/** The warning's words: when the sign-in ends, what happens after, and the one step to take. */
export function sessionWarning(userId: string, endsAt: number, stage: WarningStage, now: number, baseUrl: string): Alert {
  const left = timeLeftWords(endsAt, now)
  return {
    userId,
    requestId: null,
    dedupeKey: warningKey(endsAt, stage),
    kind: 'session_ending',
    title: `Your reservation platform sign-in ends ${left}`,
    body: `Tablewatch's sign-in to your platform account cannot renew itself past its end, so it ends ${left}. After that, Tablewatch keeps watching your requests and tells you about the tables it finds, but cannot book them until you sign in again. Reconnecting is one short sign-in in Settings.`,
    link: reconnectUrl(baseUrl),
  }
}

/** Sends every warning due now (once each); returns how many went out. */
export async function warnOfEndingSessions(deps: Deps): Promise<number> {
  const ending = await sessionsEndingBy(deps.db, deps.now, deps.now + FIRST_WARNING_MS)
  const background: Promise<unknown>[] = []
  let sent = 0
  for (const row of ending) {
    const endsAt = sessionEndOf(row)
    const stage = endsAt === null ? null : dueWarning(endsAt, deps.now)
    if (endsAt === null || !stage) continue
    const { userId } = row
    sent += await notifyUserOfAll(deps, userId, [sessionWarning(userId, endsAt, stage, deps.now, deps.baseUrl)], (work) =>
      background.push(work),
    )
  }
  // Webhooks and push finish before the run ends (the cron's waitUntil holds it open).
  await Promise.allSettled(background)
  return sent
}
