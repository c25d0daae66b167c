// Settings, in the order a diner needs it: the reservation platform first until it is connected
// (every "connect it in Settings" link lands on it, #platform); then how alerts reach them (email,
// push, what and how often: #alerts); sign-in and security; and, under Advanced, what developers
// and people booking from their own computer use: the webhook, paired devices, the API.

import type { AlertPreferences } from '../../alerts/alert-preferences'
import type { PushSettings } from '../../alerts/push-settings'
import type { DevicesOverview } from '../../devices/device-settings'
import { RISK_NOTICE } from '../../executors/connection'
import { Alert } from '../../html/components/form'
import { AlertSettings, type AlertSettingsProps } from './settings-alerts'
import { PairedDevices } from './settings-devices'
import { NotificationSettings, type NotificationSettingsProps, WebhookSettings } from './settings-notifications'
import { PlatformConnection, type PlatformSectionProps } from './settings-platform'
import { PushSettingsSection } from './settings-push'

export const PLATFORM_RISK_NOTICE = RISK_NOTICE

export interface SettingsPageProps extends NotificationSettingsProps, Omit<PlatformSectionProps, 'csrfToken'> {
  devices: DevicesOverview
  /** Web Push: this deployment's VAPID key and the browsers with push on. */
  push: PushSettings
  notice?: { kind: 'success' | 'error'; text: string } | undefined
  alertPrefs: AlertPreferences
  /** The alert preferences form after a failed save. */
  alertForm?: { errors: AlertSettingsProps['errors']; dailyCapValue: string } | undefined
}

function Advanced(props: SettingsPageProps) {
  return (
    <section class="card advanced" aria-labelledby="advanced-heading" id="advanced">
      <h2 id="advanced-heading">Advanced</h2>
      <p class="muted">
        For developers, and for booking from your own computer. The <a href="/developers">developer documentation</a> describes the API your
        assistant uses.
      </p>
      <WebhookSettings
        csrfToken={props.csrfToken}
        user={props.user}
        form={props.form}
        format={props.alertPrefs.webhookFormat}
        webhook={props.webhook}
        newWebhookSecret={props.newWebhookSecret}
      />
      <PairedDevices csrfToken={props.csrfToken} overview={props.devices} />
    </section>
  )
}

export function SettingsPage(props: SettingsPageProps) {
  // First while it needs the diner: not connected, a new sign-in wanted, or a sign-in step under way.
  const platformFirst =
    !props.connection.connected ||
    props.connection.needsReconnect ||
    props.connectForm !== undefined ||
    props.codeForm !== undefined ||
    props.signInProblem !== undefined
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
