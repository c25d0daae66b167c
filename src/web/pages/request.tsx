// One request: its status, what it asks for, the reservation (only "booked" once the platform
// verified it), the alerts sent, the decision trace, and a Stop button that cancels nothing.
import type { InboxItem } from '../../requests/inbox'
import type { RequestView, Reservation, Restaurant } from '../../requests/schemas'
import { ConfirmLink } from '../components/confirm'
import { Alert } from '../components/form'
import { SpecSummary, StatusBadge } from '../components/spec-summary'
import { formatInstant, formatLocal } from '../format'
import { people, usd } from '../spec-words'

export interface RequestPageProps {
  csrfToken: string
  request: RequestView
  venues: Restaurant[]
  alerts: InboxItem[]
  notice?: string | undefined
  error?: string | undefined
}

const OPEN = new Set(['needs_approval', 'active', 'awaiting_verification'])

function ReservationItem(props: { reservation: Reservation; venues: Restaurant[] }) {
  const r = props.reservation
  const venue = props.venues.find((v) => v.venue_id === r.venue_id)
  const zone = venue?.time_zone ?? 'UTC'
  const what = `${venue?.name ?? `Restaurant #${r.venue_id}`}, ${formatLocal(r.date, r.time, zone)}, ${people(r.party_size)}`
  return (
    <li class="item">
      <div class="item-head">
        <h3>{what}</h3>
        {r.verified ? (
          <span class="status status-confirmed">Booked and verified</span>
        ) : (
          <span class="status status-awaiting-verification">Being verified</span>
        )}
      </div>
      {r.verified ? null : <p>Tablewatch is confirming this booking with the platform. Do not count on it until it shows as verified.</p>}
      {r.cancellation_fee_per_person !== null ? (
        <p class="muted">
          Cancellation fee: {usd(r.cancellation_fee_per_person)} per person
          {r.free_cancellation_until ? `, free to cancel until ${formatInstant(Date.parse(r.free_cancellation_until), zone)}` : ''}.
        </p>
      ) : null}
      <p>
        <a href={r.manage_url} rel="noopener noreferrer" target="_blank">
          Manage or cancel it on the platform
        </a>
      </p>
    </li>
  )
}

export function RequestPage(props: RequestPageProps) {
  const r = props.request
  return (
    <>
      <div class="page-head">
        <h1>{r.title || 'Your request'}</h1>
        <StatusBadge status={r.status} />
      </div>
      {props.notice ? <Alert kind="success">{props.notice}</Alert> : null}
      {props.error ? <Alert kind="error">{props.error}</Alert> : null}
      {r.status_reason ? <p class="lead">{r.status_reason}</p> : null}
      {r.status === 'needs_approval' && r.action_url ? (
        <p>
          <a class="button" href={r.action_url}>
            Review and approve
          </a>
        </p>
      ) : null}
      <section class="card" aria-labelledby="spec-heading">
        <h2 id="spec-heading">What it asks for</h2>
        <SpecSummary request={r} venues={props.venues} />
      </section>
      <section aria-labelledby="reservation-heading">
        <h2 id="reservation-heading">Reservation</h2>
        {r.reservations.length === 0 ? (
          <p class="empty">No reservation{OPEN.has(r.status) ? ' yet' : ''}.</p>
        ) : (
          <ul class="items">
            {r.reservations.map((reservation) => (
              <ReservationItem reservation={reservation} venues={props.venues} />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="alerts-heading">
        <h2 id="alerts-heading">Alerts sent</h2>
        {props.alerts.length === 0 ? (
          <p class="empty">None yet.</p>
        ) : (
          <ul class="plain">
            {props.alerts.map((a) => (
              <li>
                {formatInstant(a.createdAt, r.timezone)}: {a.title}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="trace-heading">
        <h2 id="trace-heading">What Tablewatch did (newest first)</h2>
        {r.trace.length === 0 ? (
          <p class="empty">Nothing yet.</p>
        ) : (
          <ul class="trace">
            {[...r.trace].reverse().map((t) => (
              <li>
                <time class="muted" datetime={t.at}>
                  {formatInstant(Date.parse(t.at), r.timezone)}
                </time>{' '}
                {t.message}
              </li>
            ))}
          </ul>
        )}
      </section>
      {OPEN.has(r.status) ? (
        <section class="card" aria-labelledby="stop-heading">
          <h2 id="stop-heading">Stop watching</h2>
          <p>Stopping ends monitoring. It never cancels a reservation: to cancel or change one, use the platform's own account page.</p>
          <ConfirmLink href={`/requests/${encodeURIComponent(r.id)}/stop`}>Stop watching…</ConfirmLink>
        </section>
      ) : null}
    </>
  )
}
