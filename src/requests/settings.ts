// The user's notification settings: email alerts on or off, and an optional webhook that the
// settings page can send a test to.
import { updateNotificationSettings } from '../db/users'
import { sendWebhook, type WebhookResult, webhookUrlSchema } from '../notifications/webhook'
import type { Deps } from './deps'

export type { WebhookResult }

export type SaveSettingsResult = { ok: true } | { ok: false; webhookError: string }

/** An empty webhook URL removes the webhook; anything else must pass the webhook URL rule. */
export async function saveNotificationSettings(
  deps: Deps,
  userId: string,
  input: { emailAlerts: boolean; webhookUrl: string },
): Promise<SaveSettingsResult> {
  let webhookUrl: string | null = null
  if (input.webhookUrl !== '') {
    const checked = webhookUrlSchema.safeParse(input.webhookUrl)
    if (!checked.success) return { ok: false, webhookError: checked.error.issues[0]?.message ?? 'Enter a valid URL' }
    webhookUrl = checked.data
  }
  await updateNotificationSettings(deps.db, userId, { emailAlerts: input.emailAlerts, webhookUrl })
  return { ok: true }
}

/** One test message to the user's webhook, linking to their inbox. */
export function sendTestAlert(deps: Deps, webhookUrl: string): Promise<WebhookResult> {
  return sendWebhook(webhookUrl, {
    title: 'Tablewatch test',
    text: 'This is a test from Tablewatch. Alerts about your requests will arrive like this.',
    link: `${deps.baseUrl}/notifications`,
  })
}
