// The user's in-app inbox and (in local development) the outbox of emails, as the pages show
// them. Every read is scoped to the signed-in user.
import {
  countUnreadNotifications,
  listNotifications,
  listNotificationsOfRequest,
  listOutbox,
  markAllNotificationsRead,
  markNotificationRead,
  type NotificationRow,
  type OutboxRow,
} from '../db/notifications'
import type { Deps } from './deps'

export type InboxItem = NotificationRow
export type { AlertGroup } from '../db/alert-groups'
export type OutboxEmail = OutboxRow

export function unreadCount(deps: Deps, userId: string): Promise<number> {
  return countUnreadNotifications(deps.db, userId)
}

export function inboxOf(deps: Deps, userId: string): Promise<InboxItem[]> {
  return listNotifications(deps.db, userId)
}

/** The alerts sent about one of the user's requests, newest first. */
export function alertsOfRequest(deps: Deps, userId: string, requestId: string): Promise<InboxItem[]> {
  return listNotificationsOfRequest(deps.db, userId, requestId)
}

export function markRead(deps: Deps, userId: string, notificationId: number): Promise<void> {
  return markNotificationRead(deps.db, userId, notificationId, deps.now)
}

export function markAllRead(deps: Deps, userId: string): Promise<void> {
  return markAllNotificationsRead(deps.db, userId, deps.now)
}

export function outboxOf(deps: Deps, userId: string): Promise<OutboxEmail[]> {
  return listOutbox(deps.db, userId)
}
