// The user's in-app inbox and (in local development) the outbox of emails, as the pages show
// them. Every read is scoped to the signed-in user.
import {
  countNotifications,
  countUnreadNotifications,
  listNotifications,
  listNotificationsOfRequest,
  listOutbox,
  listTableAlertsOfRequests,
  markAllNotificationsRead,
  type NotificationRow,
  type OutboxRow,
} from '../db/notifications'
import type { Deps } from '../runtime/deps'
import { type FoundSummary, foundTablesOf } from './found-tables'

export type InboxItem = NotificationRow
export type { AlertGroup } from '../db/alert-groups'
export type OutboxEmail = OutboxRow

export function unreadCount(deps: Deps, userId: string): Promise<number> {
  return countUnreadNotifications(deps.db, userId)
}

export interface InboxPage {
  /** As they were when the page was asked for: readAt null marks what was new. */
  items: InboxItem[]
  total: number
}

/**
 * One page of the inbox, newest first. Looking at the inbox is reading it: everything is marked
 * read (the header's badge clears), after the page's items were taken as they were.
 */
export async function viewInbox(deps: Deps, userId: string, page: number, size: number, markRead = true): Promise<InboxPage> {
  const [items, total] = await Promise.all([
    listNotifications(deps.db, userId, size, (page - 1) * size),
    countNotifications(deps.db, userId),
  ])
  // `markRead` false: a view another site opened (src/html/navigation.ts) changes nothing.
  if (markRead) await markAllNotificationsRead(deps.db, userId, deps.now)
  return { items, total }
}

/** The alerts sent about one of the user's requests, newest first. */
export function alertsOfRequest(deps: Deps, userId: string, requestId: string): Promise<InboxItem[]> {
  return listNotificationsOfRequest(deps.db, userId, requestId)
}

export function outboxOf(deps: Deps, userId: string): Promise<OutboxEmail[]> {
  return listOutbox(deps.db, userId)
}

/**
 * What each of these requests found, at a glance (found-tables.ts), from their table alerts in one
 * query: the home page's "36 tables found · soonest …".
 */
export async function foundAtAGlance(
  deps: Deps,
  userId: string,
  requests: readonly { id: string; timezone: string }[],
): Promise<Map<string, FoundSummary>> {
  const rows = await listTableAlertsOfRequests(
    deps.db,
    userId,
    requests.map((r) => r.id),
  )
  return new Map(
    requests.map((r) => {
      const alerts = rows.filter((row) => row.requestId === r.id)
      return [r.id, foundTablesOf(alerts, { now: deps.now, timeZone: r.timezone }).summary] as const
    }),
  )
}
