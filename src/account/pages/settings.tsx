// Settings: notifications (email, webhook with a test) and the reservation-platform connection.

import type { AlertPreferences } from '../../alerts/alert-preferences'
import type { PushSettings } from '../../alerts/push-settings'
import type { DevicesOverview } from '../../devices/devices'
import { RISK_NOTICE } from '../../executors/connection'
import { Alert } from '../../html/components/form'
import { PairedDevices } from './devices'
import { AlertSettings, type AlertSettingsProps } from './settings-alerts'
import { NotificationSettings, type NotificationSettingsProps } from './settings-notifications'
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
