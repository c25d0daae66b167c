// Settings: notification preferences, the webhook test, and the platform connection status.
import { type Context, Hono } from 'hono'
import { z } from 'zod'
import { currentUser, requireSession } from '../../auth/session'
import { connectionStatus } from '../../requests/connection'
import { depsOf } from '../../requests/deps'
import { saveNotificationSettings, sendTestAlert, type WebhookResult } from '../../requests/settings'
import { SettingsPage, type SettingsPageProps } from '../pages/settings'
import { renderPage, type WebEnv } from '../render'

const notificationForm = z.object({
  email_alerts: z.literal('on').optional(),
  webhook_url: z.string().trim().default(''),
})

const NOTICES = {
  saved: { kind: 'success', text: 'Notification settings saved.' },
  connected: { kind: 'success', text: 'Your platform account is connected.' },
  disconnected: { kind: 'success', text: 'Disconnected. Your open requests were revoked; existing reservations stay.' },
} as const

export async function showSettings(c: Context<WebEnv>, extra: Partial<SettingsPageProps> = {}, status: 200 | 422 | 503 = 200) {
  const user = currentUser(c)
  const connection = await connectionStatus(depsOf(c.env, c.req.url), user.id)
  const props: SettingsPageProps = { csrfToken: c.get('csrfToken'), user, connection, ...extra }
  return renderPage(c, 'Settings', <SettingsPage {...props} />, status)
}

function describeWebhookResult(result: WebhookResult): SettingsPageProps['notice'] {
  if (result.ok) return { kind: 'success', text: `Test sent. Your webhook answered with status ${result.status}.` }
  switch (result.reason) {
    case 'timeout':
      return { kind: 'error', text: 'Your webhook did not answer within 5 seconds.' }
    case 'rejected':
      return { kind: 'error', text: `Your webhook answered with status ${result.status ?? 'unknown'}, so the test was not accepted.` }
    case 'network':
      return { kind: 'error', text: 'Tablewatch could not reach your webhook. Check the address.' }
  }
}

export const settingsRoutes = new Hono<WebEnv>()
settingsRoutes.use('/settings', requireSession())
settingsRoutes.use('/settings/*', requireSession())

settingsRoutes.get('/settings', (c) => {
  const done = c.req.query('done')
  const notice = done === 'saved' || done === 'connected' || done === 'disconnected' ? NOTICES[done] : undefined
  return showSettings(c, { notice })
})

settingsRoutes.post('/settings/notifications', async (c) => {
  const user = currentUser(c)
  const form = notificationForm.parse(await c.req.parseBody())
  const emailAlerts = form.email_alerts === 'on'
  const saved = await saveNotificationSettings(depsOf(c.env, c.req.url), user.id, { emailAlerts, webhookUrl: form.webhook_url })
  if (!saved.ok) return showSettings(c, { form: { emailAlerts, webhookUrl: form.webhook_url, webhookError: saved.webhookError } }, 422)
  return c.redirect('/settings?done=saved', 303)
})

settingsRoutes.post('/settings/webhook-test', async (c) => {
  const user = currentUser(c)
  if (!user.webhookUrl) return showSettings(c, { notice: { kind: 'error', text: 'Save a webhook URL first.' } }, 422)
  const result = await sendTestAlert(depsOf(c.env, c.req.url), user.webhookUrl)
  return showSettings(c, { notice: describeWebhookResult(result) })
})
