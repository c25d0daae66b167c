// Settings: notifications (email, webhook with a test) and the reservation-platform connection.

import type { AlertPreferences } from '../../alerts/alert-preferences'
import type { PushSettings } from '../../alerts/push-settings'
import type { DevicesOverview } from '../../devices/devices'
import type { ConnectionStatus } from '../../executors/connection'
import { RISK_NOTICE } from '../../executors/connection'
import { ConfirmLink } from '../../html/components/confirm'
import { Alert, CsrfInput, Field } from '../../html/components/form'
import { formatDateTime } from '../../html/format'
import { PairedDevices } from './devices'
import { AlertSettings, type AlertSettingsProps } from './settings-alerts'
import { NotificationSettings, type NotificationSettingsProps } from './settings-notifications'
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

/** A sign-in that cannot renew itself past a date ends then (executors/session-end.ts): the diner sees when, and reconnects before. */
function signInWords(connection: ConnectionStatus): string {
  if (connection.needsReconnect) return 'The platform no longer accepts it: connect again below'
  if (connection.endsAt === null) return 'Working'
  return `Working until ${formatDateTime(Date.parse(connection.endsAt))}: connect again below before then to keep booking (watching goes on either way)`
}

/** Within a week of a sign-in's end the reconnect form is open, as the warnings link here. */
const endsSoon = (connection: ConnectionStatus, now: number) =>
  connection.endsAt !== null && Date.parse(connection.endsAt) - now <= 7 * 24 * 3_600_000

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
      <dd>{signInWords(connection)}</dd>
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
  const reconnectOpen = connection.needsReconnect || props.connectForm !== undefined || endsSoon(connection, Date.now())
  return (
    // id="platform": every reconnect notice links here (src/core/reconnect-link.ts).
    <section class="card" id="platform" aria-labelledby="platform-heading">
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

export function SettingsPage(props: SettingsPageProps) {
  return (
    <>
      <h1>Settings</h1>
      {props.notice ? <Alert kind={props.notice.kind}>{props.notice.text}</Alert> : null}
      <p>
        <a href="/settings/security">Sign-in and security</a>: change your password, or sign out everywhere.
      </p>
      <NotificationSettings {...props} />
      <PushSettingsSection csrfToken={props.csrfToken} push={props.push} />
      <AlertSettings
        csrfToken={props.csrfToken}
        prefs={props.alertPrefs}
        errors={props.alertForm?.errors}
        dailyCapValue={props.alertForm?.dailyCapValue}
      />
      <PlatformConnection {...props} />
      <PairedDevices csrfToken={props.csrfToken} overview={props.devices} />
    </>
  )
}
