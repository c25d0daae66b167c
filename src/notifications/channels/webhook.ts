// The webhook channel: the alert in the format the diner chose, posted in the background so it
// never holds the caller up. A thin caller: the payload is webhook-body.ts's, the delivery (and
// where it may point) webhook.ts's.
import { sendWebhook } from '../webhook'
import { webhookPayload } from '../webhook-body'
import { webhookPolicy } from '../webhook-target'
import type { AlertChannel } from './channel'

export const webhookChannel: AlertChannel = {
  name: 'webhook',
  wants: (user) => user.webhookUrl !== null,
  async send(deps, user, alert, background) {
    if (!user.webhookUrl) return
    const payload = webhookPayload(user.webhookFormat, {
      kind: alert.kind,
      title: alert.title,
      text: alert.body,
      link: alert.link,
      requestId: alert.requestId,
      groups: alert.groups ?? [],
      sentAt: deps.now,
    })
    background(sendWebhook(user.webhookUrl, payload, { policy: webhookPolicy(deps.env) }))
  },
}
