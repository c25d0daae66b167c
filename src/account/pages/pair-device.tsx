// Pairing a device: a page of its own, the answer to the "Pair a device"
// form (so the code is never in a URL), with the code large enough to type from across the
// room and when it stops working, in the diner's zone (src/html/format.ts: the `tz` cookie, else
// where Cloudflare locates the browser).
import { formatDateTime } from '../../html/format'

export interface PairingShown {
  userCode: string
  expiresAt: number
  /** The command the user runs on the device, with this service's address and the code. */
  command: string
}

export function PairDevicePage(props: { pairing: PairingShown; lifetimeMinutes: number }) {
  const { pairing } = props
  return (
    <section class="narrow pair-device">
      <h1>Pair a device</h1>
      <p>Type this code on the device you are pairing (a laptop, a home server, a Raspberry Pi):</p>
      <p class="pairing-code" data-testid="user-code" aria-describedby="pairing-expiry">
        {pairing.userCode}
      </p>
      <p id="pairing-expiry" class="pairing-expiry" data-testid="pairing-expiry">
        Works once, until <time datetime={new Date(pairing.expiresAt).toISOString()}>{formatDateTime(pairing.expiresAt)}</time> (
        {props.lifetimeMinutes} minutes). Nobody from Tablewatch will ask you for it.
      </p>
      <h2>On the device</h2>
      <p>Run this command (it needs Node.js 22 and a checkout of Tablewatch); without --code, it asks for the code:</p>
      {/* CodeBlock's markup, with the test id the device tests read the command by. */}
      <div class="code-block">
        <pre tabindex={0}>
          <code id="pair-command" data-testid="pair-command">
            {pairing.command}
          </code>
        </pre>
        <button type="button" class="button secondary small copy" data-copy="pair-command" aria-label="Copy the pairing command" hidden>
          Copy
        </button>
      </div>
      <p>Once paired, the device appears in Settings under Advanced, Paired devices, and you can choose to book from it there.</p>
      <p>
        <a class="button" href="/settings#devices-heading">
          Back to Settings
        </a>
      </p>
    </section>
  )
}
