// The alert channels besides the inbox, in the order they are sent: one row each. Which of them
// an alert takes is decided here, from the diner's settings, and nowhere else.
import type { UserRow } from '../../db/users'
import type { AlertChannel } from './channel'
import { emailChannel } from './email'
import { webPushChannel } from './web-push'
import { webhookChannel } from './webhook'

const CHANNELS: AlertChannel[] = [emailChannel, webhookChannel, webPushChannel]

/** The channels this diner's settings turn on. */
export function channelsFor(user: UserRow): AlertChannel[] {
  return CHANNELS.filter((channel) => channel.wants(user))
}
