// The Web Push channel: the alert to every browser where the diner turned push on (a browser's
// own switch, so the channel is always asked); its retries run in the background.
import { pushAlert } from '../push/alert'
import type { AlertChannel } from './channel'

export const webPushChannel: AlertChannel = {
  name: 'web_push',
  wants: () => true,
  async send(deps, user, alert, background) {
    background(
      pushAlert(deps, user.id, alert).catch((err) => console.error('push: sending failed', err instanceof Error ? err.name : 'error')),
    )
  },
}
