// "Book this table": one told table, named exactly (restaurant, day and time, party, seating),
// what booking it commits to in everyday words, and one button. The press is the diner's approval
// of that table and those terms. After it the page says what happened, and updates itself while
// the platform is still answering. A table the service never books has no button: the page says
// why and how to book it on the platform; an account that needs reconnecting is fixed first.
import { reconnectUrl } from '../../core/reconnect-link'
import type { Executor } from '../../executors/schema'
import { Alert, CsrfInput } from '../../html/components/form'
import { formatDateTime, formatLocal } from '../../html/format'
import { people } from '../../html/spec-words'
import { dollars } from '../../lib/money'
import type { Press } from '../../request-aggregate/press-state'
import type { RequestState } from '../../request-aggregate/state'
import type { TableToBook } from '../../request-use-cases/press'

export interface BookTablePageProps {
  csrfToken: string
  state: RequestState
  table: TableToBook | null
  press: Press | null
  executor: Executor
}

const EXECUTOR_WHY: Record<NonNullable<Executor['reason']>, string> = {
  resy_not_connected: 'Tablewatch has no platform account of yours to book with.',
  resy_reauth_required: 'The platform ended or refused your sign-in, so Tablewatch cannot book until you reconnect.',
  payment_method_missing: 'Your platform account has no card on file, which booking there needs.',
  device_offline: 'You book from your paired device, and it is offline.',
  platform_refuses_cloud: "The platform refuses bookings from Tablewatch's network; book from your paired device.",
}

function TableFacts(props: { table: TableToBook; state: RequestState }) {
  const { table: t, state } = props
  const { slot } = t.table
  return (
    <dl class="facts">
      <dt>Restaurant</dt>
      <dd>{t.table.venueName}</dd>
      <dt>When</dt>
      <dd>{formatLocal(slot.day, slot.time, state.spec.timezone)}</dd>
      <dt>Party</dt>
      <dd>{people(state.spec.party_size)}</dd>
      <dt>Seating</dt>
      <dd>{slot.seatingType}</dd>
    </dl>
  )
}

/** What booking costs, in words: nothing now, and what cancelling would cost and from when. */
function MoneyWords(props: { terms: Extract<TableToBook['terms'], { kind: 'bookable' }> }) {
  const { feePerPerson, freeCancellationUntil } = props.terms
  if (feePerPerson === 0) {
    return <p>Nothing is charged, now or later: no deposit, no prepayment, and cancelling is free.</p>
  }
  const until = freeCancellationUntil === null ? null : formatDateTime(freeCancellationUntil)
  return (
    <p>
      Nothing is charged now. The restaurant holds your card on the platform: cancelling {until ? `after ${until}` : 'late'} or not showing
      up costs {dollars(feePerPerson)} per person. No deposit, no prepayment.
    </p>
  )
}

function PressForm(props: BookTablePageProps & { table: TableToBook; terms: Extract<TableToBook['terms'], { kind: 'bookable' }> }) {
  const { state, table, terms } = props
  return (
    <form method="post" action={`/requests/${encodeURIComponent(state.id)}/book`} class="stack">
      <CsrfInput token={props.csrfToken} />
      <input type="hidden" name="table" value={table.key} />
      <input type="hidden" name="terms" value={table.fingerprint} />
      {terms.aboveLimit ? (
        <p>
          <label>
            <input type="checkbox" name="accepted_fee" value={String(terms.feePerPerson)} required /> I accept the{' '}
            {dollars(terms.feePerPerson)} per person cancellation fee for this table, above my{' '}
            {dollars(state.spec.max_cancellation_fee_per_person)} limit.
          </label>
        </p>
      ) : null}
      <button type="submit" class="button">
        Book this table
      </button>
    </form>
  )
}

/** What the last press of this table did, in the page's first lines. */
function Outcome(props: { press: Press; state: RequestState }) {
  const { press, state } = props
  const back = <a href={`/requests/${encodeURIComponent(state.id)}`}>Back to the request</a>
  switch (press.outcome) {
    case 'checking':
    case 'booking':
      return (
        <Alert kind="info" title="Booking this table…">
          <p>Tablewatch is booking it and then checks that your platform account shows it. This page updates by itself.</p>
        </Alert>
      )
    case 'booked':
      return (
        <Alert kind="success" title="Booked and verified">
          <p>The table is on your platform account. {back}</p>
        </Alert>
      )
    case 'taken':
      return (
        <Alert kind="warning" title="Taken meanwhile">
          <p>Someone else booked this table first. Nothing was booked. {back}</p>
        </Alert>
      )
    case 'terms_changed':
      return (
        <Alert kind="warning" title="The terms changed">
          <p>Nothing was booked: {press.reason} Read the terms below before you press again.</p>
        </Alert>
      )
    case 'reconnect':
      return (
        <Alert kind="warning" title="Reconnect your platform account first">
          <p>
            Nothing was booked: the platform ended or refused your sign-in. <a href={reconnectUrl('')}>Reconnect in Settings</a>, then press
            again.
          </p>
        </Alert>
      )
    case 'refused':
      return (
        <Alert kind="error" title="Not booked">
          <p>
            {press.reason} {back}
          </p>
        </Alert>
      )
  }
}

export function BookTablePage(props: BookTablePageProps) {
  const { state, table, press, executor } = props
  const back = `/requests/${encodeURIComponent(state.id)}`
  if (!table) {
    return (
      <div class="stack">
        <h1>Book this table</h1>
        {press ? <Outcome press={press} state={state} /> : null}
        <p>This request does not hold this table any more (it keeps the tables of its latest alerts).</p>
        <p>
          <a class="button" href={back}>
            See the request's tables
          </a>
        </p>
      </div>
    )
  }
  const ended = press?.outcome === 'booked' || press?.outcome === 'taken'
  const inFlight = press?.outcome === 'checking' || press?.outcome === 'booking'
  const { terms } = table
  return (
    <div class="stack">
      <h1>Book this table</h1>
      {press ? <Outcome press={press} state={state} /> : null}
      {!executor.ready && !ended && executor.reason ? (
        <Alert kind="warning" title="Booking cannot happen yet">
          <p>
            {EXECUTOR_WHY[executor.reason]} <a href={reconnectUrl('')}>Fix it in Settings</a>, then come back to this page.
          </p>
        </Alert>
      ) : null}
      <section class="card" aria-labelledby="table-heading">
        <h2 id="table-heading">The table</h2>
        <TableFacts table={table} state={state} />
        {terms.kind === 'bookable' ? (
          <MoneyWords terms={terms} />
        ) : (
          <p>
            Tablewatch does not book this table: {terms.reason}.{' '}
            {table.table.venuePage ? (
              <a href={table.table.venuePage}>Book it on the platform</a>
            ) : (
              'Book it on the platform, in its app or website.'
            )}
          </p>
        )}
      </section>
      {terms.kind === 'bookable' && executor.ready && !ended && !inFlight ? <PressForm {...props} table={table} terms={terms} /> : null}
      <p>
        <a href={back}>Back to the request</a>
      </p>
    </div>
  )
}
