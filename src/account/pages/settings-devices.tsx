// The settings page's paired devices: start pairing (its code and command are on a
// page of their own, pages/pair-device.tsx, as in RFC 8628's user interaction), the devices with
// when each was last seen and a revoke button, and where booking happens: the cloud or the
// user's own device.
import type { DevicesOverview } from '../../devices/device-settings'
import { ConfirmLink } from '../../html/components/confirm'
import { Alert, CsrfInput } from '../../html/components/form'
import { formatDateTime } from '../../html/format'

interface DevicesProps {
  csrfToken: string
  overview: DevicesOverview
}

function DeviceList(props: DevicesProps) {
  const active = props.overview.devices.filter((d) => !d.revoked)
  if (active.length === 0) return <p>No device is paired.</p>
  return (
    <table class="devices">
      <thead>
        <tr>
          <th scope="col">Device</th>
          <th scope="col">Paired</th>
          <th scope="col">Last seen</th>
          <th scope="col">
            <span class="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {active.map((device) => (
          <tr data-device={device.id}>
            <td>{device.name}</td>
            <td>{formatDateTime(device.pairedAt)}</td>
            <td>{device.lastSeenAt === null ? 'Never' : formatDateTime(device.lastSeenAt)}</td>
            <td>
              <ConfirmLink href={`/settings/devices/${encodeURIComponent(device.id)}/revoke`} label={`Revoke ${device.name}`}>
                Revoke…
              </ConfirmLink>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

function ConnectionNow(props: { overview: DevicesOverview }) {
  const { status } = props.overview
  if (!status.connected) return <p data-testid="device-status">No device is connected right now.</p>
  const platform = status.platform
  const account = platform?.connected
    ? `signed in to the platform as ${platform.displayName ?? 'a user'}${platform.paymentMethodOnFile ? ', card on file' : ', no card on file'}`
    : 'not signed in to the platform yet (run the login command on the device)'
  return <p data-testid="device-status">A device is connected: {account}.</p>
}

function ExecutionChoice(props: DevicesProps) {
  const { setting } = props.overview
  const paired = props.overview.devices.some((d) => !d.revoked)
  return (
    <form method="post" action="/settings/execution" class="form">
      <CsrfInput token={props.csrfToken} />
      <fieldset>
        <legend>Where Tablewatch checks your account and books</legend>
        <label class="check">
          <input type="radio" name="execution" value="cloud" checked={setting.execution === 'cloud'} />
          <span>From Tablewatch, with the platform account you connected above</span>
        </label>
        <label class="check">
          <input type="radio" name="execution" value="user_device" checked={setting.execution === 'user_device'} disabled={!paired} />
          <span>Book from my paired device (its platform sign-in stays on the device)</span>
        </label>
        {paired ? null : (
          <p class="hint" data-testid="device-choice-disabled">
            Pair a device first: booking from your device needs one, and your requests would wait for it otherwise.
          </p>
        )}
        <label class="check">
          <input type="checkbox" name="cloud_fallback" value="on" checked={setting.cloudFallback} disabled={!paired} />
          <span>
            When my device is offline, let Tablewatch use the connected platform account meanwhile (off: watching pauses until the device is
            back)
          </span>
        </label>
      </fieldset>
      <button type="submit" class="button" disabled={!paired}>
        Save where booking happens
      </button>
    </form>
  )
}

export function PairedDevices(props: DevicesProps) {
  return (
    <section class="advanced-part" aria-labelledby="devices-heading">
      <h3 id="devices-heading">Paired devices</h3>
      <p class="muted">
        A paired device (a laptop, a home server, a Raspberry Pi) can check your platform account and book from its own network. Your
        platform sign-in then stays on the device and is never sent to Tablewatch.
      </p>
      <DeviceList {...props} />
      <ConnectionNow overview={props.overview} />
      <form method="post" action="/settings/devices/pair" class="inline-form">
        <CsrfInput token={props.csrfToken} />
        <button type="submit" class="button secondary">
          Pair a device
        </button>
      </form>
      <ExecutionChoice {...props} />
      {props.overview.setting.execution === 'user_device' && !props.overview.status.connected ? (
        <Alert kind="warning">
          {props.overview.setting.cloudFallback
            ? 'Your device is offline: Tablewatch uses your connected platform account until it is back, as you allowed.'
            : 'Your device is offline, so watching is paused until it reconnects.'}
        </Alert>
      ) : null}
    </section>
  )
}
