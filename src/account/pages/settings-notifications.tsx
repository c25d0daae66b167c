// Settings, where alerts go: email (with the alerts) and the webhook (under Advanced), with a
// test for each. Its own file so changes to alerts and to the rest of Settings do not collide.

import type { AlertPreferences } from '../../alerts/alert-preferences'
import type { SessionUser } from '../../auth/session'
import { CsrfInput, Field } from '../../html/components/form'

/** What this section shows; the Settings page passes its own props (settings.tsx builds on this shape). */
export interface NotificationSettingsProps {
  csrfToken: string
  user: SessionUser
  /** Unsaved values and errors after a failed save. */
  form?: { emailAlerts: boolean; webhookUrl: string; webhookError?: string | undefined }
  /** The saved webhook, its URL masked (never shown whole: for Slack and ntfy it is the secret). */
  webhook?: { masked: string; signed: boolean } | null | undefined
  /** A signing secret made by this answer: shown this once. */
  newWebhookSecret?: string | undefined
}

/** Email alerts: everyday, in the alerts section. */
export function NotificationSettings(props: NotificationSettingsProps) {
  const emailAlerts = props.form?.emailAlerts ?? props.user.emailAlerts
  return (
    <section class="card" aria-labelledby="notifications-heading">
      <h2 id="notifications-heading">Email</h2>
      <p class="muted">Every alert is in your Tablewatch inbox. You can get them by email too.</p>
      <form method="post" action="/settings/notifications" class="form" novalidate>
        <CsrfInput token={props.csrfToken} />
        <input type="hidden" name="only" value="email" />
        <label class="check">
          <input type="checkbox" name="email_alerts" value="on" checked={emailAlerts} />
          <span>Email me alerts at {props.user.email}</span>
        </label>
        <button type="submit" class="button">
          Save email setting
        </button>
      </form>
      <form method="post" action="/settings/email-test" class="inline-form">
        <CsrfInput token={props.csrfToken} />
        <button type="submit" class="button secondary">
          Send me a test email
        </button>
      </form>
    </section>
  )
}

/** The webhook (for developers and home automation), under Advanced: where alerts are posted, and in which format. */
export function WebhookSettings(props: NotificationSettingsProps & { format: AlertPreferences['webhookFormat'] }) {
  const webhookUrl = props.form?.webhookUrl ?? props.webhook?.masked ?? ''
  return (
    <section aria-labelledby="webhook-heading" class="advanced-part">
      <h3 id="webhook-heading">Webhook</h3>
      <p class="muted">Alerts can also be posted to an address of yours, for a chat or home-automation service.</p>
      <form method="post" action="/settings/notifications" class="form" novalidate>
        <CsrfInput token={props.csrfToken} />
        <input type="hidden" name="only" value="webhook" />
        <Field
          label="Webhook URL (optional)"
          name="webhook_url"
          type="url"
          value={webhookUrl}
          hint={
            props.webhook
              ? 'Saved, shown shortened. Type a new https address to replace it, or empty the field to remove it.'
              : 'Any https address. Leave empty for none.'
          }
          error={props.form?.webhookError}
          maxLength={2000}
        />
        <div class="field">
          <label for="webhook_format">Webhook format</label>
          <select id="webhook_format" name="webhook_format" aria-describedby="webhook_format-hint">
            <option value="json" selected={props.format === 'json'}>
              Tablewatch JSON (documented on the Developers page)
            </option>
            <option value="ntfy" selected={props.format === 'ntfy'}>
              ntfy
            </option>
            <option value="slack" selected={props.format === 'slack'}>
              Slack incoming webhook
            </option>
          </select>
          <p class="hint" id="webhook_format-hint">
            How alerts are posted to the address above.
          </p>
        </div>
        <button type="submit" class="button">
          Save webhook
        </button>
      </form>
      {props.newWebhookSecret ? (
        <div class="alert alert-success" role="status">
          <p>
            Your webhook's signing secret, shown this once: copy it to your receiver now. Every post carries a{' '}
            <code>Tablewatch-Signature</code> made with it (see the <a href="/developers#webhook-signature">Developers page</a>).
          </p>
          <p>
            <code data-webhook-secret>{props.newWebhookSecret}</code>
          </p>
        </div>
      ) : null}
      {props.webhook ? (
        <>
          <p class="muted">
            {props.webhook.signed
              ? 'Posts are signed (Tablewatch-Signature). Lost the secret? Make a new one: the old one stops signing at once.'
              : 'Posts to this address are not signed yet: save the webhook again to get a signing secret.'}
          </p>
          <form method="post" action="/settings/webhook-secret" class="inline-form">
            <CsrfInput token={props.csrfToken} />
            <button type="submit" class="button secondary">
              Make a new signing secret
            </button>
          </form>
          <form method="post" action="/settings/webhook-test" class="inline-form">
            <CsrfInput token={props.csrfToken} />
            <button type="submit" class="button secondary">
              Send a test to my webhook
            </button>
          </form>
        </>
      ) : null}
    </section>
  )
}
