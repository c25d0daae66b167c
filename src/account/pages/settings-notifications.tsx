// Settings, the notifications section: where alerts go (email, webhook) with a test for each.
// Its own file so changes to alerts and to the rest of Settings do not collide.
import { CsrfInput, Field } from '../../html/components/form'
import type { SettingsPageProps } from './settings'

export function NotificationSettings(props: SettingsPageProps) {
  const emailAlerts = props.form?.emailAlerts ?? props.user.emailAlerts
  const webhookUrl = props.form?.webhookUrl ?? props.user.webhookUrl ?? ''
  return (
    <section class="card" aria-labelledby="notifications-heading">
      <h2 id="notifications-heading">Notifications</h2>
      <p class="muted">Alerts always appear in your Tablewatch inbox. You can also get them by email and on a webhook.</p>
      <form method="post" action="/settings/notifications" class="form" novalidate>
        <CsrfInput token={props.csrfToken} />
        <label class="check">
          <input type="checkbox" name="email_alerts" value="on" checked={emailAlerts} />
          <span>Email me alerts at {props.user.email}</span>
        </label>
        <Field
          label="Webhook URL (optional)"
          name="webhook_url"
          type="url"
          value={webhookUrl}
          hint="Any https address; pick its format (Tablewatch JSON, ntfy or Slack) under the alert preferences below. Leave empty for none."
          error={props.form?.webhookError}
          maxLength={2000}
        />
        <button type="submit" class="button">
          Save notification settings
        </button>
      </form>
      <form method="post" action="/settings/email-test" class="inline-form">
        <CsrfInput token={props.csrfToken} />
        <button type="submit" class="button secondary">
          Send me a test email
        </button>
      </form>
      {props.user.webhookUrl ? (
        <form method="post" action="/settings/webhook-test" class="inline-form">
          <CsrfInput token={props.csrfToken} />
          <button type="submit" class="button secondary">
            Send a test to my webhook
          </button>
        </form>
      ) : null}
    </section>
  )
}
