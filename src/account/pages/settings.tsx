// Settings, in the order a diner needs it: the reservation platform first until it is connected
// (every "connect it in Settings" link lands on it, #platform); then how alerts reach them (email,
// push, what and how often: #alerts); sign-in and security; and, under Advanced, what developers
// and people booking from their own computer use: the webhook, paired devices, the API.

import type { AlertPreferences } from '../../alerts/alert-preferences'
import type { PushSettings } from '../../alerts/push-settings'
import type { DevicesOverview } from '../../devices/devices'
import type { ConnectionStatus } from '../../executors/connection'
import { RISK_NOTICE } from '../../executors/connection'
import { ConfirmLink } from '../../html/components/confirm'
import { Alert, CsrfInput, Field } from '../../html/components/form'
import { PairedDevices } from './devices'
import { AlertSettings, type AlertSettingsProps } from './settings-alerts'
import { NotificationSettings, type NotificationSettingsProps, WebhookSettings } from './settings-notifications'
import { PushSettingsSection } from './settings-push'

export const PLATFORM_RISK_NOTICE = RISK_NOTICE

export interface SettingsPageProps extends NotificationSettingsProps {
  connection: ConnectionStatus
  devices: DevicesOverview
  /** Web Push: this deployment's VAPID key and the browsers with push on. */
  push: PushSettings
  /** The connect form after a failed attempt (the password is never echoed). */
  connectForm?: { email: string; errors: { email?: string | undefined; password?: string | undefined; acceptRisk?: string | undefined } }
  notice?: { kind: 'success' | 'error'; text: string } | undefined
  alertPrefs: AlertPreferences
  /** The alert preferences form after a failed save. */
  alertForm?: { errors: AlertSettingsProps['errors']; dailyCapValue: string } | undefined
}

function ConnectionState(props: { connection: ConnectionStatus }) {
  const { connection } = props
  if (!connection.connected)
    return (
      <p>
        <strong>Status:</strong> Not connected. Tablewatch cannot watch or book until you connect.
      </p>
    )
  return (
    <dl class="facts">
      <dt>Connected as</dt>
      <dd>{connection.displayName}</dd>
      <dt>Payment method</dt>
      <dd>{connection.paymentMethodOnFile ? 'On file' : 'None on file: alerts work, booking does not'}</dd>
      <dt>Sign-in</dt>
      <dd>{connection.needsReconnect ? 'The platform no longer accepts it: connect again below' : 'Working'}</dd>
    </dl>
  )
}

function ConnectForm(props: SettingsPageProps) {
  const errors = props.connectForm?.errors ?? {}
  const reconnect = props.connection.connected
  return (
    <form method="post" action="/settings/platform/connect" class="form" novalidate>
      <h3>{reconnect ? 'Connect again or switch account' : 'Connect your platform account'}</h3>
      <CsrfInput token={props.csrfToken} />
      <Field
        label="Platform email"
        name="platform_email"
        type="email"
        value={props.connectForm?.email ?? ''}
        autocomplete="off"
        required
        error={errors.email}
      />
      <Field
        label="Platform password"
        name="platform_password"
        type="password"
        autocomplete="off"
        hint="Used once to sign in to the platform; never stored."
        required
        error={errors.password}
      />
      <div class={errors.acceptRisk ? 'field has-error' : 'field'}>
        <label class="check">
          <input type="checkbox" name="accept_risk" value="on" required />
          <span>I understand that the platform may deactivate my account for using this service, and I accept that risk.</span>
        </label>
        {errors.acceptRisk ? <p class="field-error">{errors.acceptRisk}</p> : null}
      </div>
      <button type="submit" class="button">
        {reconnect ? 'Connect again' : 'Connect'}
      </button>
    </form>
  )
}

function ConnectWithNotice(props: SettingsPageProps) {
  return (
    <>
      <Alert kind="warning" title="Before you connect">
        <p>
          {PLATFORM_RISK_NOTICE} By connecting, you accept that risk. Tablewatch uses your sign-in once to get an access token from the
          platform, and never stores your password.
        </p>
      </Alert>
      <ConnectForm {...props} />
    </>
  )
}

function PlatformConnection(props: SettingsPageProps) {
  // Once connected, the form is behind "Reconnect" (open by itself when the platform asks for a
  // new sign-in or the last attempt failed); a <details> needs no script.
  const { connection } = props
  const reconnectOpen = connection.needsReconnect || props.connectForm !== undefined
  return (
    <section class="card" aria-labelledby="platform-heading">
      <h2 id="platform-heading">Reservation platform</h2>
      <ConnectionState connection={connection} />
      {connection.connected ? (
        <details class="reconnect" open={reconnectOpen}>
          <summary>Reconnect</summary>
          <ConnectWithNotice {...props} />
        </details>
      ) : (
        <ConnectWithNotice {...props} />
      )}
      {props.connection.connected ? (
        <p class="inline-form">
          <ConfirmLink href="/settings/platform/disconnect">Disconnect…</ConfirmLink>
          <span class="hint">Your open requests stop and show “revoked”. Existing reservations stay.</span>
        </p>
      ) : null}
    </section>
  )
}

function Advanced(props: SettingsPageProps) {
  return (
    <section class="card advanced" aria-labelledby="advanced-heading" id="advanced">
      <h2 id="advanced-heading">Advanced</h2>
      <p class="muted">
        For developers, and for booking from your own computer. The <a href="/developers">developer documentation</a> describes the API your
        assistant uses.
      </p>
      <WebhookSettings csrfToken={props.csrfToken} user={props.user} form={props.form} format={props.alertPrefs.webhookFormat} />
      <PairedDevices csrfToken={props.csrfToken} overview={props.devices} />
    </section>
  )
}

export function SettingsPage(props: SettingsPageProps) {
  const platformFirst = !props.connection.connected || props.connection.needsReconnect
  // The platform section keeps its own markup (the connect form is another change's); the anchor is this wrapper.
  const platform = (
    <div id="platform" class="anchor">
      <PlatformConnection {...props} />
    </div>
  )
  return (
    <>
      <h1>Settings</h1>
      {props.notice ? <Alert kind={props.notice.kind}>{props.notice.text}</Alert> : null}
      {platformFirst ? platform : null}
      <div id="alerts" class="anchor">
        <NotificationSettings {...props} />
        <PushSettingsSection csrfToken={props.csrfToken} push={props.push} />
        <AlertSettings
          csrfToken={props.csrfToken}
          prefs={props.alertPrefs}
          errors={props.alertForm?.errors}
          dailyCapValue={props.alertForm?.dailyCapValue}
        />
      </div>
      {platformFirst ? null : platform}
      <section class="card" aria-labelledby="account-heading">
        <h2 id="account-heading">Sign-in and security</h2>
        <p>
          <a href="/settings/security">Change your password, or sign out everywhere</a>.
        </p>
      </section>
      <Advanced {...props} />
    </>
  )
}
