// Settings: notifications (email, webhook with a test) and the reservation-platform connection.
import type { SessionUser } from '../../auth/session'
import type { Executor } from '../../requests/schemas'
import { Alert, CsrfInput, Field } from '../components/form'

export const PLATFORM_RISK_NOTICE =
  "The reservation platform's terms prohibit automated access and it may deactivate accounts that use such tools."

export interface SettingsPageProps {
  csrfToken: string
  user: SessionUser
  executor: Executor
  /** Unsaved values and errors after a failed save. */
  form?: { emailAlerts: boolean; webhookUrl: string; webhookError?: string | undefined }
  notice?: { kind: 'success' | 'error'; text: string } | undefined
}

function NotificationSettings(props: SettingsPageProps) {
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
          hint="An ntfy or Slack-style address that accepts a JSON POST with title and text. Leave empty for none."
          error={props.form?.webhookError}
          maxLength={2000}
        />
        <button type="submit" class="button">
          Save notification settings
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

function connectionStatus(executor: Executor): string {
  if (executor.ready) return 'Connected, with a payment method on file.'
  switch (executor.reason) {
    case 'resy_not_connected':
      return 'Not connected.'
    case 'resy_reauth_required':
      return 'Connected, but the platform no longer accepts the sign-in. Connect again.'
    case 'payment_method_missing':
      return 'Connected, but no payment method is on file on the platform: alerts work, booking does not.'
    default:
      return 'Unknown.'
  }
}

function PlatformConnection(props: SettingsPageProps) {
  return (
    <section class="card" aria-labelledby="platform-heading">
      <h2 id="platform-heading">Reservation platform</h2>
      <p>
        <strong>Status:</strong> {connectionStatus(props.executor)}
      </p>
      <Alert kind="warning" title="Before you connect">
        <p>
          {PLATFORM_RISK_NOTICE} Connecting means you accept that risk. Tablewatch uses your sign-in once to get an
          access token from the platform, and never stores your password.
        </p>
      </Alert>
      <form class="form" aria-describedby="connect-unavailable">
        <fieldset disabled>
          <legend>Connect your platform account</legend>
          <Field label="Platform email" name="platform_email" type="email" autocomplete="off" />
          <Field label="Platform password" name="platform_password" type="password" autocomplete="off" />
          <label class="check">
            <input type="checkbox" name="accept_risk" value="on" />
            <span>I understand the platform may deactivate my account for using this service.</span>
          </label>
          <button type="submit" class="button">
            Connect
          </button>
        </fieldset>
        <p class="hint" id="connect-unavailable">
          Connecting is not available yet.
        </p>
      </form>
    </section>
  )
}

export function SettingsPage(props: SettingsPageProps) {
  return (
    <>
      <h1>Settings</h1>
      {props.notice ? <Alert kind={props.notice.kind}>{props.notice.text}</Alert> : null}
      <NotificationSettings {...props} />
      <PlatformConnection {...props} />
    </>
  )
}
