// Settings, the alert preferences section: the caps on table alerts, a switch per
// kind of notice, and the webhook's format. Its own file so other Settings changes stay apart.

import { ALERT_GAP_CHOICES, type AlertPreferences, NOTICE_SWITCHES, SWITCH_LABELS } from '../../alerts/alert-preferences'
import { CsrfInput, Field } from '../../html/components/form'

export interface AlertSettingsProps {
  csrfToken: string
  prefs: AlertPreferences
  /** Unsaved values and errors after a failed save. */
  errors?: Partial<Record<keyof AlertPreferences, string>> | undefined
  dailyCapValue?: string | undefined
}

const gapLabel = (minutes: number) => (minutes === 0 ? 'No gap: every poll with new tables' : `${minutes} minutes`)

export function AlertSettings(props: AlertSettingsProps) {
  const { prefs } = props
  return (
    <section class="card" aria-labelledby="alerts-heading">
      <h2 id="alerts-heading">What you are told, and how often</h2>
      <form method="post" action="/settings/alerts" class="form" novalidate>
        <CsrfInput token={props.csrfToken} />
        <fieldset>
          <legend>Email and webhook me when…</legend>
          <p class="hint">Switched off: still listed in your Tablewatch inbox, but not emailed or posted.</p>
          {NOTICE_SWITCHES.map((name) => (
            <label class="check">
              <input type="checkbox" name="notices" value={name} checked={!prefs.noticesOff.includes(name)} />
              <span>{SWITCH_LABELS[name]}</span>
            </label>
          ))}
        </fieldset>
        <div class="field">
          <label for="alert_gap_minutes">At most one table alert per request every</label>
          <select id="alert_gap_minutes" name="alert_gap_minutes" aria-describedby="alert_gap_minutes-hint">
            {ALERT_GAP_CHOICES.map((m) => (
              <option value={String(m)} selected={m === prefs.alertGapMinutes}>
                {gapLabel(m)}
              </option>
            ))}
          </select>
          <p class="hint" id="alert_gap_minutes-hint">
            Unless a new restaurant-date appears: that one is sent at once. Tables found meanwhile come together in the next alert.
          </p>
        </div>
        <Field
          label="Table alerts by email and webhook per day, at most"
          name="daily_alert_cap"
          type="number"
          value={props.dailyCapValue ?? String(prefs.dailyAlertCap)}
          hint="Over the last 24 hours, all requests together. Beyond it, alerts still reach your inbox."
          error={props.errors?.dailyAlertCap}
          min={1}
          max={500}
        />
        <div class="field">
          <label for="webhook_format">Webhook format</label>
          <select id="webhook_format" name="webhook_format" aria-describedby="webhook_format-hint">
            <option value="json" selected={prefs.webhookFormat === 'json'}>
              Tablewatch JSON (version 1, documented on the Developers page)
            </option>
            <option value="ntfy" selected={prefs.webhookFormat === 'ntfy'}>
              ntfy
            </option>
            <option value="slack" selected={prefs.webhookFormat === 'slack'}>
              Slack incoming webhook
            </option>
          </select>
          <p class="hint" id="webhook_format-hint">
            How alerts are posted to the webhook URL above.
          </p>
        </div>
        <button type="submit" class="button">
          Save alert preferences
        </button>
      </form>
    </section>
  )
}
