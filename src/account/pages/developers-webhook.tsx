// The developers page, the webhook section: the documented, versioned JSON body of alerts, and
// the ntfy and Slack presets (notifications/webhook-body.ts builds them).
import { CodeBlock as Code } from '../../html/components/code-block'

const EXAMPLE = `POST <your webhook URL>
Content-Type: application/json

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
          "link": "https://resy.com/cities/new-york-ny/venues/pomelo-garden?date=2026-12-05&seats=2",
          "book_link": "https://tablewatch.example/requests/sr_…/book?table=60105%7C2026-12-05%7C19%3A30%7CDining+Room" },
        { "time": "21:00", "seating": "Patio", "fee": "deposit $40", "note": null,
          "link": "https://resy.com/cities/new-york-ny/venues/pomelo-garden?date=2026-12-05&seats=2",
          "book_link": null }
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
        <dt>book_link</dt>
        <dd>
          Tablewatch's "Book this table" page for the table, where Tablewatch could book it (signed in, it states the terms and one press
          books it); <code>null</code> for a table it never books, such as one with a deposit.
        </dd>
      </dl>
      <p>
        <strong>ntfy preset:</strong> the alert's text as a plain-text body, with <code>Title</code> and <code>Click</code> headers (use a
        topic URL such as <code>https://ntfy.sh/your-topic</code>). <strong>Slack preset:</strong> an incoming-webhook message,{' '}
        <code>{'{"text": …}'}</code>, with each table as a link.
      </p>
    </section>
  )
}
