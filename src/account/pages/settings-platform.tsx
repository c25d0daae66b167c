// The settings page's reservation-platform section: the connection, what the platform refuses
// from Tablewatch's servers (by its answers), and connecting: a code by text message first (most
// accounts have no password), a password second, each made by Tablewatch's servers or, when the
// platform refuses them, by the user's paired device. No script; nothing secret is echoed.
import type { DevicesOverview } from '../../devices/device-settings'
import type { ConnectionStatus } from '../../executors/connection'
import { RISK_NOTICE } from '../../executors/connection'
import type { PlatformAccess } from '../../executors/platform-access'
import type { SignInVia } from '../../executors/platform-sign-in-pending'
import type { SignInWords } from '../../executors/platform-sign-in-words'
import { ConfirmLink } from '../../html/components/confirm'
import { Alert, CsrfInput, Field } from '../../html/components/form'
import { formatDateTime } from '../../html/format'

export interface PlatformSectionProps {
  csrfToken: string
  connection: ConnectionStatus
  devices: DevicesOverview
  access: PlatformAccess
  /** The password form after a failed attempt (the password is never echoed). */
  connectForm?: { email: string; errors: { email?: string | undefined; password?: string | undefined; acceptRisk?: string | undefined } }
  /** The code form after a failed attempt: the number the diner typed. */
  codeForm?: { mobileNumber: string; error?: string | undefined }
  /** What went wrong with the last sign-in step, in words with a next step. */
  signInProblem?: { words: SignInWords; via: SignInVia } | undefined
}

const CALL_WORDS: Record<PlatformAccess['refused'][number]['call'], string> = {
  sign_in: 'signing in',
  refresh: 'renewing your session',
  details: 'reading a table’s booking details',
  book: 'booking',
  reservations: 'reading your reservations',
}

/** A sign-in that cannot renew itself past a date ends then (executors/session-end.ts): the diner sees when, and reconnects before. */
function sessionWords(connection: ConnectionStatus): string {
  if (connection.needsReconnect) return 'The platform no longer accepts it: connect again below'
  if (connection.endsAt === null) return 'Working'
  return `Working until ${formatDateTime(Date.parse(connection.endsAt))}: connect again below before then to keep booking (watching goes on either way)`
}

/** Within a week of a sign-in's end the reconnect forms are open, as the warnings link here. */
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
      <dd>{sessionWords(connection)}</dd>
    </dl>
  )
}

/** What the platform refused from our servers, said plainly, with the user's way round it. */
function CloudRefusals(props: PlatformSectionProps) {
  const { access, devices } = props
  if (access.refused.length === 0) return null
  const fromDevice = devices.setting.execution === 'user_device'
  return (
    <Alert kind="warning" title="The platform refuses some calls from Tablewatch’s servers">
      <ul data-testid="cloud-refusals">
        {access.refused.map((r) => (
          <li>
            {CALL_WORDS[r.call]} (last refused {formatDateTime(r.lastAt)})
          </li>
        ))}
      </ul>
      {access.signInRefused ? (
        <p>
          The platform does not let our servers sign you in. Connect from your own computer below: your paired device signs in from your
          network.
        </p>
      ) : null}
      {access.bookingRefused && !fromDevice ? (
        <p data-testid="booking-refused">
          Booking from our servers is refused for your account. To book, choose “Book from my paired device” under{' '}
          <a href="#devices-heading">Paired devices</a>; Tablewatch never switches by itself. Watching and alerts go on from our servers.
        </p>
      ) : null}
    </Alert>
  )
}

/** Where the step is made: our servers by default, the paired device when the platform refused ours. */
function ViaButtons(props: { preferDevice: boolean; canDevice: boolean; cloud: string; device: string; deviceCloud: string }) {
  if (props.preferDevice && props.canDevice)
    return (
      <p class="actions">
        <button type="submit" class="button" name="via" value="device">
          {props.device}
        </button>{' '}
        <button type="submit" class="button secondary" name="via" value="cloud">
          {props.deviceCloud}
        </button>
      </p>
    )
  return (
    <button type="submit" class="button" name="via" value="cloud">
      {props.cloud}
    </button>
  )
}

function DeviceHint(props: PlatformSectionProps) {
  const { status } = props.devices
  const paired = props.devices.devices.some((d) => !d.revoked)
  if (status.canSignIn) return null
  return (
    <div class="alert alert-info" role="status" data-testid="device-hint">
      <p class="alert-title">Connect from your own computer</p>
      <p>
        {paired ? (
          <>
            Your paired device is not connected, or has no platform settings. On it, run <code>tablewatch-device run</code>; this page then
            offers to sign in through it.
          </>
        ) : (
          <>
            Pair your computer under <a href="#devices-heading">Paired devices</a>, run <code>tablewatch-device run</code> on it, and come
            back: this page then offers to sign in through it. You type the code here as before; your computer only passes it on.
          </>
        )}
      </p>
    </div>
  )
}

function CodeForm(props: PlatformSectionProps & { preferDevice: boolean }) {
  return (
    <form method="post" action="/settings/platform/code" class="form" novalidate>
      <h3>Sign in with a code by text message</h3>
      <p class="hint">Most platform accounts sign in this way, without a password.</p>
      <CsrfInput token={props.csrfToken} />
      <Field
        label="Mobile number"
        name="mobile_number"
        type="tel"
        inputMode="tel"
        autocomplete="tel"
        value={props.codeForm?.mobileNumber ?? ''}
        hint="The number of the phone your platform account uses, with its country code."
        required
        error={props.codeForm?.error}
      />
      <ViaButtons
        preferDevice={props.preferDevice}
        canDevice={props.devices.status.canSignIn}
        cloud="Text me a code"
        device="Text me a code through my computer"
        deviceCloud="Try from Tablewatch’s servers"
      />
    </form>
  )
}

function PasswordForm(props: PlatformSectionProps & { preferDevice: boolean }) {
  const errors = props.connectForm?.errors ?? {}
  return (
    <form method="post" action="/settings/platform/connect" class="form" novalidate>
      <h3>Or sign in with your platform password</h3>
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
      <RiskAcceptance error={errors.acceptRisk} />
      <ViaButtons
        preferDevice={props.preferDevice}
        canDevice={props.devices.status.canSignIn}
        cloud={props.connection.connected ? 'Connect again' : 'Connect'}
        device="Connect through my computer"
        deviceCloud="Connect from Tablewatch’s servers"
      />
    </form>
  )
}

/** The risk accepted where Tablewatch gets a token: the password form, the code step. */
export function RiskAcceptance(props: { error?: string | undefined }) {
  return (
    <div class={props.error ? 'field has-error' : 'field'}>
      <label class="check">
        <input type="checkbox" name="accept_risk" value="on" required />
        <span>I understand that the platform may deactivate my account for using this service, and I accept that risk.</span>
      </label>
      {props.error ? <p class="field-error">{props.error}</p> : null}
    </div>
  )
}

export function SignInProblem(props: { problem: { words: SignInWords } }) {
  const { words } = props.problem
  return (
    <Alert kind="error" title={words.said}>
      <p>{words.next}</p>
    </Alert>
  )
}

function Connect(props: PlatformSectionProps) {
  const preferDevice = props.access.signInRefused || props.signInProblem?.words.offer === 'device'
  return (
    <>
      <Alert kind="warning" title="Before you connect">
        <p>
          {RISK_NOTICE} By connecting, you accept that risk. Tablewatch uses your sign-in once to get an access token from the platform, and
          never stores your password or the code.
        </p>
      </Alert>
      {props.access.underWay ? (
        <p>
          A sign-in is under way:{' '}
          <a href="/settings/platform/code">type the code we sent to the number ending in {props.access.underWay.numberHint}</a>.
        </p>
      ) : null}
      {preferDevice ? <DeviceHint {...props} /> : null}
      <CodeForm {...props} preferDevice={preferDevice} />
      <PasswordForm {...props} preferDevice={preferDevice} />
    </>
  )
}

export function PlatformConnection(props: PlatformSectionProps) {
  // Once connected, the forms are behind "Reconnect" (open by themselves when the platform asks for
  // a new sign-in or the last attempt failed); a <details> needs no script.
  const { connection } = props
  const reconnectOpen =
    connection.needsReconnect ||
    props.connectForm !== undefined ||
    props.codeForm !== undefined ||
    props.signInProblem !== undefined ||
    endsSoon(connection, Date.now())
  return (
    // id="platform": every reconnect notice links here (src/core/reconnect-link.ts).
    <section class="card" id="platform" aria-labelledby="platform-heading">
      <h2 id="platform-heading">Reservation platform</h2>
      <ConnectionState connection={connection} />
      <CloudRefusals {...props} />
      {props.signInProblem ? <SignInProblem problem={props.signInProblem} /> : null}
      {connection.connected ? (
        <details class="reconnect" open={reconnectOpen}>
          <summary>Reconnect</summary>
          <Connect {...props} />
        </details>
      ) : (
        <Connect {...props} />
      )}
      {connection.connected ? (
        <p class="inline-form">
          <ConfirmLink href="/settings/platform/disconnect">Disconnect…</ConfirmLink>
          <span class="hint">Your open requests stop and show “revoked”. Existing reservations stay.</span>
        </p>
      ) : null}
    </section>
  )
}
