// "Book for me": the approval of the exact request the diner switches to booking on its page, as
// the approval link shows it (what it asks for, the fee limits, no deposits), with one button.
import { Alert, CsrfInput } from '../../html/components/form'
import type { RequestView } from '../../request-use-cases/schemas'
import type { Restaurant } from '../../venues/schema'
import { SpecSummary } from '../components/spec-summary'

export function BookForMePage(props: { csrfToken: string; request: RequestView; venues: Restaurant[]; error?: string | undefined }) {
  const r = props.request
  const self = `/requests/${encodeURIComponent(r.id)}`
  return (
    <div class="stack">
      <h1>Book for me: approve this request</h1>
      {props.error ? <Alert kind="error">{props.error}</Alert> : null}
      <p>
        Tablewatch will book the first table that matches exactly this, within these limits, and then check that your platform account shows
        it. You can switch back to alerts at any time.
      </p>
      <section class="card" aria-labelledby="spec-heading">
        <h2 id="spec-heading">What it books</h2>
        <SpecSummary request={{ ...r, mode: 'auto_book' }} venues={props.venues} />
      </section>
      <form method="post" action={`${self}/mode`} class="stack">
        <CsrfInput token={props.csrfToken} />
        <input type="hidden" name="revision" value={String(r.revision)} />
        <input type="hidden" name="mode" value="auto_book" />
        <button type="submit" class="button">
          Approve: book for me
        </button>
      </form>
      <p>
        <a href={self}>Keep it as alerts</a>
      </p>
    </div>
  )
}
