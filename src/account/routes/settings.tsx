// Settings: notification preferences, the webhook test, and the platform connection status.
import { type Context, Hono } from 'hono'
import { z } from 'zod'
import { alertPreferencesOf, NOTICE_SWITCHES, saveAlertPreferences } from '../../alerts/alert-preferences'
import { pushSettingsOf } from '../../alerts/push-settings'
import {
  rotateWebhookSecret,
  saveNotificationSettings,
  sendTestAlert,
  sendTestEmail,
  type WebhookResult,
  webhookOf,
  webhookViewOf,
} from '../../alerts/settings'
import { currentUser, requireSession } from '../../auth/session'
import { devicesOverview } from '../../devices/device-settings'
import { connectionStatus } from '../../executors/connection'
import { platformAccessOf } from '../../executors/platform-access'
import { renderPage, type WebEnv } from '../../html/render'
import { depsOf } from '../../runtime/deps'
import { SettingsPage, type SettingsPageProps } from '../pages/settings'

// email_alerts is a checkbox: "on" when ticked, absent otherwise.
const notificationForm = z.object({
  webhook_url: z.string('Enter a full URL starting with https://').trim().default(''),
})

const NOTICES = {
  saved: { kind: 'success', text: 'Notification settings saved.' },
  alerts: { kind: 'success', text: 'Alert preferences saved.' },
  connected: { kind: 'success', text: 'Your platform account is connected.' },
  disconnected: { kind: 'success', text: 'Disconnected. Your open requests were revoked; existing reservations stay.' },
  device_revoked: { kind: 'success', text: 'The device was revoked and disconnected. It can no longer act for you.' },
  execution_saved: { kind: 'success', text: 'Saved where booking happens.' },
  push_on: { kind: 'success', text: 'Push is on for this browser.' },
  push_removed: { kind: 'success', text: 'Push is off for that browser.' },
} as const

export async function showSettings(c: Context<WebEnv>, extra: Partial<SettingsPageProps> = {}, status: 200 | 404 | 422 | 429 | 503 = 200) {
  const user = currentUser(c)
  const deps = depsOf(c.env, c.req.url)
  const [connection, alertPrefs, devices, push, access, webhook] = await Promise.all([
    connectionStatus(deps, user.id),
    alertPreferencesOf(deps, user.id),
    devicesOverview(deps, user.id),
    pushSettingsOf(deps, user.id),
    platformAccessOf(deps, user.id),
    webhookViewOf(deps, user.id),
  ])
  const props: SettingsPageProps = { csrfToken: c.get('csrfToken'), user, connection, alertPrefs, devices, push, access, webhook, ...extra }
  return renderPage(c, 'Settings', <SettingsPage {...props} />, status)
}

/**
 * What the test did, without the receiver's status code: a page that reported it would tell
 * whoever saved the URL what answers at that address (a port and service oracle).
 */
function describeWebhookResult(result: WebhookResult): SettingsPageProps['notice'] {
  if (result.ok) return { kind: 'success', text: 'Test sent. Your webhook accepted it.' }
  switch (result.reason) {
    case 'timeout':
      return { kind: 'error', text: 'Your webhook did not answer within 5 seconds.' }
    case 'rejected':
      return { kind: 'error', text: 'Your webhook did not accept the test. Check the address and the receiving service.' }
    case 'network':
      return { kind: 'error', text: 'Tablewatch could not reach your webhook. Check the address.' }
    case 'refused':
      return { kind: 'error', text: 'Tablewatch no longer sends to this address. Save a public https:// address.' }
    case 'too_many':
      return { kind: 'error', text: 'You sent many tests in the last hour. Wait a while before sending another.' }
  }
}

export const settingsRoutes = new Hono<WebEnv>()
settingsRoutes.use('/settings', requireSession())
settingsRoutes.use('/settings/*', requireSession())

settingsRoutes.get('/settings', (c) => {
  const done = c.req.query('done')
  const notice = done !== undefined && done in NOTICES ? NOTICES[done as keyof typeof NOTICES] : undefined
  return showSettings(c, { notice })
})

// The email form (only=email) changes email alerts alone; the webhook form under Advanced (only=webhook)
// the webhook address and format alone; a form without `only` sets both email and webhook, as before.
settingsRoutes.post('/settings/notifications', async (c) => {
  const user = currentUser(c)
  const deps = depsOf(c.env, c.req.url)
  const body = await c.req.parseBody()
  const only = body.only === 'email' || body.only === 'webhook' ? body.only : null
  const emailAlerts = only === 'webhook' ? user.emailAlerts : body.email_alerts === 'on'
  const form = only === 'email' ? notificationForm.safeParse({}) : notificationForm.safeParse(body)
  if (!form.success) {
    const typed = typeof body.webhook_url === 'string' ? body.webhook_url.slice(0, 2000) : ''
    const webhookError = form.error.issues[0]?.message ?? 'Enter a valid URL'
    return showSettings(c, { form: { emailAlerts, webhookUrl: typed, webhookError } }, 422)
  }
  const webhookUrl = form.data.webhook_url
  const saved = await saveNotificationSettings(deps, user.id, { emailAlerts, webhookUrl: only === 'email' ? 'keep' : webhookUrl })
  if (!saved.ok) return showSettings(c, { form: { emailAlerts, webhookUrl, webhookError: saved.webhookError } }, 422)
  if (only === 'webhook' && body.webhook_format !== undefined) {
    const prefs = await alertPreferencesOf(deps, user.id)
    const format = await saveAlertPreferences(deps, user.id, { ...prefs, webhookFormat: body.webhook_format })
    if (!format.ok) return showSettings(c, { form: { emailAlerts, webhookUrl, webhookError: 'Choose one of the offered formats.' } }, 422)
  }
  // A new signing secret is on this answer only, never in a URL or a later page.
  if (saved.ok && saved.newSecret) return showSettings(c, { newWebhookSecret: saved.newSecret, notice: NOTICES.saved })
  return c.redirect('/settings?done=saved', 303)
})

settingsRoutes.post('/settings/webhook-secret', async (c) => {
  const user = currentUser(c)
  const secret = await rotateWebhookSecret(depsOf(c.env, c.req.url), user.id, user.emailAlerts)
  if (!secret) return showSettings(c, { notice: { kind: 'error', text: 'Save a webhook URL first.' } }, 422)
  return showSettings(c, {
    newWebhookSecret: secret,
    notice: { kind: 'success', text: 'New signing secret made. The old one no longer signs.' },
  })
})

settingsRoutes.post('/settings/webhook-test', async (c) => {
  const user = currentUser(c)
  const deps = depsOf(c.env, c.req.url)
  const webhook = await webhookOf(deps, user.id)
  if (!webhook) return showSettings(c, { notice: { kind: 'error', text: 'Save a webhook URL first.' } }, 422)
  const { webhookFormat } = await alertPreferencesOf(deps, user.id)
  const result = await sendTestAlert(deps, user.id, webhook, webhookFormat)
  const tooMany = !result.ok && result.reason === 'too_many'
  return showSettings(c, { notice: describeWebhookResult(result) }, tooMany ? 429 : 200)
})

settingsRoutes.post('/settings/email-test', async (c) => {
  const user = currentUser(c)
  const sent = await sendTestEmail(depsOf(c.env, c.req.url), user)
  if (!sent.ok)
    return showSettings(c, { notice: { kind: 'error', text: 'You sent many test emails in the last hour. Try again later.' } }, 429)
  return showSettings(c, { notice: { kind: 'success', text: `Test email sent to ${user.email}.` } })
})

settingsRoutes.post('/settings/alerts', async (c) => {
  const user = currentUser(c)
  const form = await c.req.parseBody({ all: true })
  const notices = [form.notices ?? []].flat().filter((v): v is string => typeof v === 'string')
  const deps = depsOf(c.env, c.req.url)
  // The webhook's format is set with the webhook (Advanced); a form that still sends it sets it here too.
  const webhookFormat = form.webhook_format ?? (await alertPreferencesOf(deps, user.id)).webhookFormat
  const input = {
    alertGapMinutes: form.alert_gap_minutes,
    dailyAlertCap: form.daily_alert_cap,
    noticesOff: NOTICE_SWITCHES.filter((name) => !notices.includes(name)),
    webhookFormat,
  }
  const saved = await saveAlertPreferences(deps, user.id, input)
  if (!saved.ok) {
    const dailyCapValue = typeof form.daily_alert_cap === 'string' ? form.daily_alert_cap : ''
    return showSettings(c, { alertForm: { errors: saved.errors, dailyCapValue } }, 422)
  }
  return c.redirect('/settings?done=alerts', 303)
})
