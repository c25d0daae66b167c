// The kinds of notices, and the switches in Settings that turn each group off for email and
// the webhook (the inbox always keeps them).

/** What an alert is about (stored as the notification's kind). */
export type AlertKind =
  | 'table_found'
  | 'booking_skipped'
  | 'approval_needed'
  | 'expiry_warning'
  | 'request_ended'
  | 'booked'
  | 'booking_unverified'
  | 'reconnect_needed'
  | 'checks_blocked'
  /** The paired device has been offline for 10 minutes. */
  | 'device_offline'
  /** The platform sign-in has no refresh token and ends in 7 days, or in 1 (executors/session-warnings.ts). */
  | 'session_ending'

export const NOTICE_SWITCHES = ['tables', 'approval', 'expiry', 'ended', 'booked', 'health'] as const
export type NoticeSwitch = (typeof NOTICE_SWITCHES)[number]

/** The words of each switch in Settings. */
export const SWITCH_LABELS: Record<NoticeSwitch, string> = {
  tables: 'Tablewatch finds tables for a request (one alert for all the tables of one check)',
  approval: 'A booking request waits for my approval',
  expiry: 'A request I have not approved expires in a day',
  ended: 'A request expired or was revoked',
  booked: 'A table was booked (or a booking needs checking on the platform)',
  health:
    'Something needs you: the platform account needs reconnecting (or its sign-in ends soon), or the platform stops letting Tablewatch check',
}

const SWITCH_OF: Record<AlertKind, NoticeSwitch> = {
  table_found: 'tables',
  booking_skipped: 'tables',
  approval_needed: 'approval',
  expiry_warning: 'expiry',
  request_ended: 'ended',
  booked: 'booked',
  booking_unverified: 'booked',
  reconnect_needed: 'health',
  checks_blocked: 'health',
  device_offline: 'health',
  session_ending: 'health',
}

export const switchOf = (kind: AlertKind): NoticeSwitch => SWITCH_OF[kind]
