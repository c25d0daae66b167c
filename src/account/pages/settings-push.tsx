// The settings page's Web Push section: turn push on for this browser (public/push.js
// asks for permission, subscribes with the VAPID public key and sends the subscription), send a
// test, and the browsers with push on, each with when it was added and a Remove button.

import type { PushSettings } from '../../alerts/push-settings'
import { CsrfInput } from '../../html/components/form'
import { formatDateTime } from '../../html/format'

function Browsers(props: { csrfToken: string; push: PushSettings }) {
  const { subscriptions } = props.push
  if (subscriptions.length === 0) return <p data-testid="push-none">No browser has push on yet.</p>
  return (
    <ul class="push-browsers" data-testid="push-browsers">
      {subscriptions.map((s) => (
        <li data-push-subscription={s.id}>
          <div>
            <strong>{s.label}</strong>
            <span class="hint">
              Added {formatDateTime(s.createdAt)}
              {s.lastSuccessAt !== null ? ` · last push ${formatDateTime(s.lastSuccessAt)}` : ''}
            </span>
            {s.lastFailure !== null && s.lastFailureAt !== null ? (
              <span class="field-error">
                The push at {formatDateTime(s.lastFailureAt)} did not arrive: {s.lastFailure}.
              </span>
            ) : null}
          </div>
          <form method="post" action={`/settings/push/${encodeURIComponent(s.id)}/remove`}>
            <CsrfInput token={props.csrfToken} />
            <button type="submit" class="button secondary small" aria-label={`Remove ${s.label}, added ${formatDateTime(s.createdAt)}`}>
              Remove
            </button>
          </form>
        </li>
      ))}
    </ul>
  )
}

export function PushSettingsSection(props: { csrfToken: string; push: PushSettings }) {
  const { publicKey, subscriptions } = props.push
  return (
    <section class="card" aria-labelledby="push-heading" id="push">
      <h2 id="push-heading">Push notifications</h2>
      <p>
        Alerts can arrive on this phone or computer as notifications, the moment Tablewatch sends them: the same alerts as your inbox and
        email, under the same switches and daily cap.
      </p>
      {publicKey === null ? (
        <p data-testid="push-unavailable">Push is not set up on this deployment.</p>
      ) : (
        <div class="push-this-browser" data-push-key={publicKey}>
          <CsrfInput token={props.csrfToken} />
          <p data-push-status role="status">
            Turning push on needs JavaScript and a browser that supports notifications.
          </p>
          <button type="button" class="button" data-push-enable hidden>
            Turn on push for this browser
          </button>
          <script src="/push.js" defer />
        </div>
      )}
      <p class="hint">
        On an iPhone or iPad, push reaches only a site added to the Home Screen: in Safari, tap Share, then “Add to Home Screen”, open
        Tablewatch from the Home Screen, and turn push on there.
      </p>
      <h3>Browsers with push on</h3>
      <Browsers {...props} />
      {subscriptions.length > 0 ? (
        <form method="post" action="/settings/push/test" class="inline-form" data-push-test>
          <CsrfInput token={props.csrfToken} />
          <button type="submit" class="button secondary">
            Send a test push
          </button>
        </form>
      ) : null}
    </section>
  )
}
