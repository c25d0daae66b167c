// The user's notification settings: email alerts on or off, and an optional webhook that the
// settings page can send a test to.
import { reserve } from '../db/rate-limits'
import { findUserById, turnOffEmailAlerts, updateNotificationSettings } from '../db/users'
import { mailerOf } from '../notifications/mailer'
import { unsubscribeUrl, validUnsubscribe } from '../notifications/unsubscribe'
import { type WebhookResult as SendResult, sendWebhook, webhookUrlSchema } from '../notifications/webhook'
import { type WebhookFormat, webhookPayload } from '../notifications/webhook-body'
import { maskedWebhookUrl, openWebhookConfig, sealWebhookConfig, type WebhookConfig } from '../notifications/webhook-config'
import { newWebhookSecret } from '../notifications/webhook-signature'
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

/** `newSecret`: the webhook's signing secret, made by this save, to be shown this once. */
export type SaveSettingsResult = { ok: true; newSecret: string | null } | { ok: false; webhookError: string }

/** The user's webhook, opened; null when there is none. */
export async function webhookOf(deps: Deps, userId: string): Promise<WebhookConfig | null> {
  const user = await findUserById(deps.db, userId)
  return openWebhookConfig(deps.env.PLATFORM_TOKEN_KEY, userId, user?.webhookUrl ?? null)
}

/** What the settings page shows of the user's webhook: the URL masked, and whether its posts are signed. */
export async function webhookViewOf(deps: Deps, userId: string): Promise<{ masked: string; signed: boolean } | null> {
  const webhook = await webhookOf(deps, userId)
  return webhook ? { masked: maskedWebhookUrl(webhook.url), signed: webhook.secret !== null } : null
}

/**
 * An empty webhook URL removes the webhook; the masked URL the page shows (or `keep`) keeps the
 * saved one; anything else must pass the webhook URL rule. The signing secret stays with the
 * user's webhook across URL changes; the first save of a webhook (or of one from before signing)
 * makes one, returned to be shown once.
 */
export async function saveNotificationSettings(
  deps: Deps,
  userId: string,
  input: { emailAlerts: boolean; webhookUrl: string | 'keep' },
): Promise<SaveSettingsResult> {
  const current = await webhookOf(deps, userId)
  const keep = input.webhookUrl === 'keep' || (current !== null && input.webhookUrl === maskedWebhookUrl(current.url))
  let url: string | null = keep ? (current?.url ?? null) : null
  if (!keep && input.webhookUrl !== '') {
    const checked = webhookUrlSchema(webhookPolicy(deps.env)).safeParse(input.webhookUrl)
    if (!checked.success) return { ok: false, webhookError: checked.error.issues[0]?.message ?? 'Enter a valid URL' }
    url = checked.data
  }
  const newSecret = url !== null && !current?.secret ? newWebhookSecret() : null
  const secret = newSecret ?? current?.secret ?? null
  const stored = url !== null && secret !== null ? await sealWebhookConfig(deps.env.PLATFORM_TOKEN_KEY, userId, { url, secret }) : null
  await updateNotificationSettings(deps.db, userId, { emailAlerts: input.emailAlerts, webhookUrl: stored })
  return { ok: true, newSecret }
}

/** A new signing secret for the user's webhook (the old one stops signing at once); null without a webhook. */
export async function rotateWebhookSecret(deps: Deps, userId: string, emailAlerts: boolean): Promise<string | null> {
  const current = await webhookOf(deps, userId)
  if (!current) return null
  const secret = newWebhookSecret()
  const stored = await sealWebhookConfig(deps.env.PLATFORM_TOKEN_KEY, userId, { url: current.url, secret })
  await updateNotificationSettings(deps.db, userId, { emailAlerts, webhookUrl: stored })
  return secret
}

/** One test message to the user's webhook, in their chosen format, linking to their inbox; 10 an hour at most. */
export async function sendTestAlert(deps: Deps, userId: string, webhook: WebhookConfig, format: WebhookFormat): Promise<WebhookResult> {
  const allowed = await reserve(deps.db, { key: `webhook-test:${userId}`, ...WEBHOOK_TESTS }, deps.now)
  if (!allowed.ok) return { ok: false, reason: 'too_many' }
  const link = `${deps.baseUrl}/notifications`
  const text = 'This is a test from Tablewatch. Alerts about your requests will arrive like this.'
  const alert = { kind: 'test', title: 'Tablewatch test', text, link, requestId: null, groups: [], sentAt: deps.now }
  return sendWebhook(webhook.url, webhookPayload(format, alert), { policy: webhookPolicy(deps.env), signingSecret: webhook.secret })
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
