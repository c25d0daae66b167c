// The user's notification settings: email alerts on or off, and an optional webhook that the
// settings page can send a test to.
import { reserve } from '../db/rate-limits'
import { turnOffEmailAlerts, updateNotificationSettings } from '../db/users'
import { mailerOf } from '../notifications/mailer'
import { unsubscribeUrl, validUnsubscribe } from '../notifications/unsubscribe'
import { type WebhookResult as SendResult, sendWebhook, webhookUrlSchema } from '../notifications/webhook'
import { type WebhookFormat, webhookPayload } from '../notifications/webhook-body'
import { webhookPolicy } from '../notifications/webhook-target'
import type { Deps } from '../runtime/deps'

/** Tests of the webhook per user: enough to debug a receiver, too few to scan with. */
const WEBHOOK_TESTS = { limit: 10, windowMs: 60 * 60 * 1000 }
/**
 * Test emails per user: enough to check a spam folder, too few to turn the service into a way of
 * mailing an address (sign-up does not prove the address is the user's).
 */
const EMAIL_TESTS = { limit: 5, windowMs: 60 * 60 * 1000 }

export type WebhookResult = SendResult | { ok: false; reason: 'too_many' }

export type SaveSettingsResult = { ok: true } | { ok: false; webhookError: string }

/** An empty webhook URL removes the webhook; anything else must pass the webhook URL rule. */
export async function saveNotificationSettings(
  deps: Deps,
  userId: string,
  input: { emailAlerts: boolean; webhookUrl: string },
): Promise<SaveSettingsResult> {
  let webhookUrl: string | null = null
  if (input.webhookUrl !== '') {
    const checked = webhookUrlSchema(webhookPolicy(deps.env)).safeParse(input.webhookUrl)
    if (!checked.success) return { ok: false, webhookError: checked.error.issues[0]?.message ?? 'Enter a valid URL' }
    webhookUrl = checked.data
  }
  await updateNotificationSettings(deps.db, userId, { emailAlerts: input.emailAlerts, webhookUrl })
  return { ok: true }
}

/** One test message to the user's webhook, in their chosen format, linking to their inbox; 10 an hour at most. */
export async function sendTestAlert(deps: Deps, userId: string, webhookUrl: string, format: WebhookFormat): Promise<WebhookResult> {
  const allowed = await reserve(deps.db, { key: `webhook-test:${userId}`, ...WEBHOOK_TESTS }, deps.now)
  if (!allowed.ok) return { ok: false, reason: 'too_many' }
  const link = `${deps.baseUrl}/notifications`
  const text = 'This is a test from Tablewatch. Alerts about your requests will arrive like this.'
  const alert = { kind: 'test', title: 'Tablewatch test', text, link, requestId: null, groups: [], sentAt: deps.now }
  return sendWebhook(webhookUrl, webhookPayload(format, alert), { policy: webhookPolicy(deps.env) })
}

/** The unsubscribe link (no sign-in): a valid token turns this user's email alerts off, once or many times. */
export async function unsubscribeByLink(deps: Deps, userId: string, token: string): Promise<boolean> {
  if (!(await validUnsubscribe(deps.env, userId, token))) return false
  return turnOffEmailAlerts(deps.db, userId)
}

/** One test email to the user, through the deployment's mailer (the outbox locally); 5 an hour at most. */
export async function sendTestEmail(
  deps: Deps,
  user: { id: string; email: string },
): Promise<{ ok: true } | { ok: false; reason: 'too_many' }> {
  const allowed = await reserve(deps.db, { key: `email-test:${user.id}`, ...EMAIL_TESTS }, deps.now)
  if (!allowed.ok) return { ok: false, reason: 'too_many' }
  await mailerOf(deps.env, deps.db, () => deps.now).send({
    userId: user.id,
    to: user.email,
    subject: 'Tablewatch test',
    body: `This is a test from Tablewatch. Alerts about your requests will arrive like this.\n\nYour inbox: ${deps.baseUrl}/notifications`,
    unsubscribeUrl: await unsubscribeUrl(deps.env, deps.baseUrl, user.id),
  })
  return { ok: true }
}
