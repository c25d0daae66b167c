// Settings, the alert preferences section: a switch per kind of notice, the gap before the same
// table is told again, and the daily cap. Its own file so other Settings changes stay apart.

import { ALERT_GAP_CHOICES, type AlertPreferences, NOTICE_SWITCHES, SWITCH_LABELS } from '../../alerts/alert-preferences'
import { CsrfInput, Field } from '../../html/components/form'

export interface AlertSettingsProps {
  csrfToken: string
  prefs: AlertPreferences
  /** Unsaved values and errors after a failed save. */
  errors?: Partial<Record<keyof AlertPreferences, string>> | undefined
  dailyCapValue?: string | undefined
}

const gapLabel = (minutes: number) => (minutes === 0 ? 'Right away' : `${minutes} minutes`)

export function AlertSettings(props: AlertSettingsProps) {
  const { prefs } = props
  return (
    <section class="card" aria-labelledby="alerts-heading">
      <h2 id="alerts-heading">What you are told, and how often</h2>
      <form method="post" action="/settings/alerts" class="form" novalidate>
        <CsrfInput token={props.csrfToken} />
        <fieldset>
          <legend>Email and push me when…</legend>
          <p class="hint">
            Switched off: still in your Tablewatch inbox, but not emailed, pushed or posted to your webhook (under Advanced).
          </p>
          {NOTICE_SWITCHES.map((name) => (
            <label class="check">
              <input type="checkbox" name="notices" value={name} checked={!prefs.noticesOff.includes(name)} />
              <span>{SWITCH_LABELS[name]}</span>
            </label>
          ))}
        </fieldset>
        <div class="field">
          <label for="alert_gap_minutes">Tell me again about the same table, if it was taken and comes back, after</label>
          <select id="alert_gap_minutes" name="alert_gap_minutes" aria-describedby="alert_gap_minutes-hint">
            {ALERT_GAP_CHOICES.map((m) => (
              <option value={String(m)} selected={m === prefs.alertGapMinutes}>
                {gapLabel(m)}
              </option>
            ))}
          </select>
          <p class="hint" id="alert_gap_minutes-hint">
            A table you have not been told about is always sent at once. This only keeps a table that was taken and came back from being
            sent to you again sooner.
          </p>
        </div>
        <Field
          label="Table alerts by email, push and webhook per day, at most"
          name="daily_alert_cap"
          type="number"
          value={props.dailyCapValue ?? String(prefs.dailyAlertCap)}
          hint="Over the last 24 hours, all your requests together. Beyond it, alerts still reach your inbox."
          error={props.errors?.dailyAlertCap}
          min={1}
          max={500}
        />
        <button type="submit" class="button">
          Save alert preferences
        </button>
      </form>
    </section>
  )
}
