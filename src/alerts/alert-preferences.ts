// The user's alert preferences (Settings): how often table alerts may come (per request and per
// day), which other notices are emailed and posted, and the webhook's body format.
import { z } from 'zod'
import { type AlertPreferences, findAlertPreferences, updateAlertPreferences } from '../db/users'
import { NOTICE_SWITCHES } from '../notifications/kinds'

export { NOTICE_SWITCHES, SWITCH_LABELS } from '../notifications/kinds'

import type { Deps } from '../runtime/deps'

export type { AlertPreferences }

/** The choices Settings offers for the per-request gap between table alerts. */
export const ALERT_GAP_CHOICES = [0, 5, 10, 30, 60] as const

const alertPreferencesSchema = z.object({
  alertGapMinutes: z.coerce
    .number()
    .int()
    .refine((n) => (ALERT_GAP_CHOICES as readonly number[]).includes(n), 'Choose one of the offered gaps'),
  dailyAlertCap: z.coerce.number({ error: 'Enter a number' }).int('Enter a whole number').min(1, 'At least 1').max(500, 'At most 500'),
  noticesOff: z.array(z.enum(NOTICE_SWITCHES)),
  webhookFormat: z.enum(['json', 'ntfy', 'slack']),
})

const DEFAULT_ALERT_PREFERENCES: AlertPreferences = { alertGapMinutes: 10, dailyAlertCap: 20, noticesOff: [], webhookFormat: 'json' }

export async function alertPreferencesOf(deps: Deps, userId: string): Promise<AlertPreferences> {
  return (await findAlertPreferences(deps.db, userId)) ?? DEFAULT_ALERT_PREFERENCES
}

export type SaveAlertPreferencesResult = { ok: true } | { ok: false; errors: Partial<Record<keyof AlertPreferences, string>> }

export async function saveAlertPreferences(deps: Deps, userId: string, input: unknown): Promise<SaveAlertPreferencesResult> {
  const parsed = alertPreferencesSchema.safeParse(input)
  if (!parsed.success) {
    const errors: Partial<Record<keyof AlertPreferences, string>> = {}
    for (const issue of parsed.error.issues) {
      const field = issue.path[0]
      if (typeof field === 'string' && field in DEFAULT_ALERT_PREFERENCES) errors[field as keyof AlertPreferences] ??= issue.message
    }
    return { ok: false, errors }
  }
  await updateAlertPreferences(deps.db, userId, parsed.data)
  return { ok: true }
}
