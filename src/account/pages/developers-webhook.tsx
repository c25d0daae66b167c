// The developers page, the webhook section: the documented, versioned JSON body of alerts, and
// the ntfy and Slack presets (notifications/webhook-body.ts builds them).
import { CodeBlock as Code } from '../../html/components/code-block'

const VERIFY = `// Node 18+ or any runtime with WebCrypto. secret: the whsec_… value Settings showed you.
async function fromTablewatch(secret, request) {
  const body = await request.text() // the raw body, before any JSON parsing
  const timestamp = request.headers.get('Tablewatch-Timestamp') ?? ''
  if (!/^\\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(\`\${timestamp}.\${body}\`))
  const expected = 'v1=' + [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, '0')).join('')
  return request.headers.get('Tablewatch-Signature') === expected // compare in constant time in production
}`

const EXAMPLE = `POST <your webhook URL>
Content-Type: application/json
Tablewatch-Timestamp: 1795456931
Tablewatch-Signature: v1=5d41402abc4b2a76b9719d911017c592…

{
  "version": 1,
  "kind": "table_found",
  "title": "3 tables open at 2 restaurants on 2 dates",
  "text": "For 2:\\n\\nPomelo Garden · Sat, Dec 5\\n- 7:30 PM ET · Dining Room: https://resy.com/cities/new-york-ny/venues/pomelo-garden?date=2026-12-05&seats=2\\n…",
  "link": "https://tablewatch.example/requests/sr_…",
  "request_id": "sr_…",
  "sent_at": "2026-11-23T18:02:11.000Z",
  "groups": [
    {
      "restaurant": "Pomelo Garden",
      "venue_id": 60105,
      "date": "2026-12-05",
      "time_zone": "America/New_York",
      "tables": [
        { "time": "19:30", "seating": "Dining Room", "fee": null, "note": null,
          "link": "https://resy.com/cities/new-york-ny/venues/pomelo-garden?date=2026-12-05&seats=2" },
        { "time": "21:00", "seating": "Patio", "fee": "deposit $40", "note": null,
          "link": "https://resy.com/cities/new-york-ny/venues/pomelo-garden?date=2026-12-05&seats=2" }
      ]
    }
  ]
}`

export function WebhookDocs() {
  return (
    <section id="webhook" class="card">
      <h2>Webhook alerts</h2>
      <p>
        Set a webhook URL in Settings and Tablewatch POSTs every alert you have switched on there, in the format you choose. The default is
        this JSON, <strong>version 1</strong>: fields are only ever added within a version, and a change that removes or renames one comes
        as version 2.
      </p>
      <Code id="webhook-example" label="the example webhook request">
        {EXAMPLE}
      </Code>
      <dl class="facts">
        <dt>kind</dt>
        <dd>
          <code>table_found</code>, <code>booking_skipped</code> (found but not booked automatically; <code>note</code> says why),{' '}
          <code>approval_needed</code>, <code>expiry_warning</code>, <code>request_ended</code>, <code>booked</code>,{' '}
          <code>booking_unverified</code>, <code>reconnect_needed</code>, <code>session_ending</code>, <code>checks_blocked</code>,{' '}
          <code>device_offline</code>, or <code>test</code>.
        </dd>
        <dt>groups</dt>
        <dd>A table alert's tables by restaurant and date (empty for other kinds). One alert per request per poll, within your caps.</dd>
        <dt>time, date</dt>
        <dd>The restaurant's local date and time, as the platform lists them.</dd>
        <dt>time_zone</dt>
        <dd>The restaurant's IANA time zone (null in alerts sent before it was added).</dd>
        <dt>link</dt>
        <dd>Opens the restaurant's page on the reservation platform for that date and party size, where the time is listed.</dd>
      </dl>
      <h3 id="webhook-signature">Checking that a post is from Tablewatch</h3>
      <p>
        Every post is signed with your webhook's own signing secret (<code>whsec_…</code>), shown once in Settings when you save your first
        webhook, and again whenever you make a new one there (the old one stops signing at once). Two headers carry the signature:{' '}
        <code>Tablewatch-Timestamp</code>, the Unix time in seconds when it was sent, and <code>Tablewatch-Signature</code>,{' '}
        <code>v1=</code> followed by the hex HMAC-SHA-256 of <code>&lt;timestamp&gt;.&lt;body&gt;</code> under the secret, the body exactly
        as received. Accept a post only when the signature matches and the timestamp is within 5 minutes of your clock: that refuses forged
        posts and replays of old ones. The ntfy and Slack presets carry the same headers; those services ignore them.
      </p>
      <Code id="webhook-verify" label="checking the signature">
        {VERIFY}
      </Code>
      <p>Your webhook URL is stored encrypted and Settings shows it shortened, since for Slack and ntfy the URL itself is the secret.</p>
      <p>
        <strong>ntfy preset:</strong> the alert's text as a plain-text body, with <code>Title</code> and <code>Click</code> headers (use a
        topic URL such as <code>https://ntfy.sh/your-topic</code>). <strong>Slack preset:</strong> an incoming-webhook message,{' '}
        <code>{'{"text": …}'}</code>, with each table as a link.
      </p>
    </section>
  )
}
