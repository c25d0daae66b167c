// One request: its status, when it was last checked, how long it still runs and what to do
// next; the reservation (only "booked" once the platform verified it) with an .ics download;
// what it asks for; the tables its alerts listed, grouped per restaurant-date, the other notices
// and the decision trace, each paged; and Stop, which asks first and cancels nothing.

import type { FoundGroup } from '../../alerts/found-tables'
import type { InboxItem } from '../../alerts/inbox'
import { ConfirmLink } from '../../html/components/confirm'
import { Alert, CsrfInput } from '../../html/components/form'
import { type PageOf, Pager } from '../../html/components/pager'
import { ago, duration, formatInstant, formatLocal } from '../../html/format'
import { people } from '../../html/spec-words'
import { dollars } from '../../lib/money'
import type { RequestView } from '../../requests/schemas'
import type { Reservation } from '../../reservations/schema'
import type { Restaurant } from '../../venues/schema'
import type { Cadence } from '../../watching/cadence'
import { DigestGroups } from '../components/digest-groups'
import { SpecSummary, StatusBadge } from '../components/spec-summary'

export interface RequestPageProps {
  csrfToken: string
  now: number
  request: RequestView
  venues: Restaurant[]
  /** The tables the request's alerts listed, one group per restaurant-date, newest alert first; paged. */
  found: PageOf<FoundGroup>
  /** How many alerts listed tables. */
  tableAlerts: number
  /** The alerts that list no tables (approval, expiry, booked, health), newest first; paged. */
  notices: PageOf<InboxItem>
  /** The request's whole kept trace (newest first), paged. */
  trace: PageOf<{ at: string; message: string }>
  notice?: string | undefined
  error?: string | undefined
  /** Local development with the sandbox platform only (core/deployment.ts sandboxDemoEnabled). */
  demoControl?: boolean | undefined
  /** How often the platform is checked now, and planned (requests/view.ts checkCadence); null: not known. */
  cadence?: Cadence | null | undefined
}

const OPEN = new Set(['needs_approval', 'active', 'awaiting_verification'])

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

function Cancellation(props: { reservation: Reservation }) {
  const r = props.reservation
  if (!r.cancellation_fee_per_person) return <>No cancellation fee.</>
  const fee = `${dollars(r.cancellation_fee_per_person)} per person`
  if (!r.free_cancellation_until) return <>Cancellation fee: {fee}.</>
  return (
    <>
      Free to cancel until <strong>{formatInstant(Date.parse(r.free_cancellation_until), r.time_zone)}</strong>; after that the restaurant
      charges {fee}.
    </>
  )
}

function ReservationItem(props: { reservation: Reservation }) {
  const r = props.reservation
  return (
    <li class="item reservation">
      <div class="item-head">
        <h3>{r.venue_name}</h3>
        {r.verified ? (
          <span class="status status-confirmed">Booked and verified</span>
        ) : (
          <span class="status status-awaiting-verification">Being verified</span>
        )}
      </div>
      {r.verified ? null : <p>Tablewatch is confirming this booking with the platform. Do not count on it until it shows as verified.</p>}
      <dl class="facts">
        <dt>When</dt>
        <dd>{formatLocal(r.date, r.time, r.time_zone)}</dd>
        <dt>Where</dt>
        <dd>{r.address ?? 'The platform states no address; see the manage link.'}</dd>
        <dt>Party</dt>
        <dd>{people(r.party_size)}</dd>
        <dt>Seating</dt>
        <dd>{r.seating}</dd>
        <dt>Cancellation</dt>
        <dd>
          <Cancellation reservation={r} />
        </dd>
      </dl>
      <p class="row">
        <a href={r.manage_url} rel="noopener noreferrer" target="_blank">
          Manage or cancel it on the platform
        </a>
        {r.verified ? (
          <>
            <a href={`/reservations/${r.reservation_id}.ics`} download>
              Add to calendar (.ics)
            </a>
            <a href="/calendar">Subscribe to all your reservations</a>
          </>
        ) : null}
      </p>
    </li>
  )
}

/** What the user should do now, in one sentence (and the one button it needs). */
function NextStep(props: { request: RequestView }) {
  const r = props.request
  const notReady = r.status === 'active' && !r.executor.ready && r.mode === 'auto_book'
  if (r.status === 'needs_approval' && r.action_url)
    return (
      <p class="next-step">
        <strong>Next:</strong> review and approve it; nothing is watched until you do.{' '}
        <a class="button" href={r.action_url}>
          Review and approve
        </a>
      </p>
    )
  if (notReady && r.executor.reason === 'platform_refuses_cloud')
    return (
      <p class="next-step">
        <strong>Next:</strong> the platform refuses booking from Tablewatch’s servers for your account. To book, choose your paired device{' '}
        <a href="/settings#devices-heading">in Settings</a>; watching goes on meanwhile.
      </p>
    )
  if (notReady)
    return (
      <p class="next-step">
        <strong>Next:</strong> Tablewatch cannot book until your platform account works. <a href="/settings">Check it in Settings</a>.
      </p>
    )
  const words: Record<RequestView['status'], string> = {
    needs_approval: 'Waiting for your approval.',
    active:
      r.mode === 'auto_book'
        ? 'Nothing to do: Tablewatch books the first table that fits, within your limits, and tells you.'
        : 'Nothing to do: you get an alert when a table appears, and book it yourself on the platform.',
    awaiting_verification: 'Tablewatch is confirming the booking with the platform. Do not count on it until it says confirmed.',
    confirmed: 'Your table is booked. Add it to your calendar below; manage or cancel it on the platform.',
    expired: 'Watching ended without a table. Ask your assistant for a new request if you still want one.',
    stopped: 'This request is stopped. Ask your assistant for a new one if you still want a table.',
    revoked: 'The assistant that made this request was disconnected. Ask an assistant for a new request if you still want a table.',
  }
  return (
    <p class="next-step">
      <strong>Next:</strong> {words[r.status]}
    </p>
  )
}

/**
 * The cadence achieved, in words. When the service's platform budget stretches it, the
 * diner sees that and the cadence their request asked for: a slower check is a smaller chance.
 */
function CadenceWords(props: { cadence: Cadence }) {
  const { everyMs, plannedMs } = props.cadence
  if (everyMs === null) return null
  const stretched = plannedMs !== null && everyMs > plannedMs * 1.2
  return (
    <>
      <dt>Checks</dt>
      <dd id="check-cadence">
        about every {duration(everyMs)}
        {stretched && plannedMs !== null
          ? ` (every ${duration(plannedMs)} planned: the service is sharing its calls to the platform among many diners right now)`
          : ''}
      </dd>
    </>
  )
}

function Pulse(props: { request: RequestView; now: number; cadence: Cadence | null }) {
  const r = props.request
  const open = OPEN.has(r.status)
  const checked = r.last_checked_at ? Date.parse(r.last_checked_at) : null
  const ends = Date.parse(r.expires_at)
  return (
    <dl class="facts pulse">
      {r.status === 'active' || r.status === 'awaiting_verification' || checked !== null ? (
        <>
          <dt>Last checked</dt>
          <dd id="last-checked">
            {checked === null ? (
              'Not checked yet'
            ) : (
              <time datetime={r.last_checked_at ?? ''} title={formatInstant(checked, r.timezone)}>
                {ago(checked, props.now)}
              </time>
            )}
          </dd>
        </>
      ) : null}
      {props.cadence ? <CadenceWords cadence={props.cadence} /> : null}
      {open ? (
        <>
          <dt>Watching ends</dt>
          <dd id="expires-in">
            {ends > props.now ? `in ${duration(ends - props.now)}` : 'now'} ({formatInstant(ends, r.timezone)})
          </dd>
        </>
      ) : null}
    </dl>
  )
}

/** The sandbox's demo control: never rendered outside local development. */
function DemoControl(props: { csrfToken: string; action: string }) {
  return (
    <section class="card" aria-labelledby="demo-heading">
      <h2 id="demo-heading">Sandbox demo</h2>
      <p>
        The sandbox platform can open a free table that fits this request, on one of its days and in its window; Tablewatch checks at once,
        so an alert (or, once approved, an <code>auto_book</code> booking) follows within a minute. Local development only.
      </p>
      <form method="post" action={props.action} class="inline-form">
        <CsrfInput token={props.csrfToken} />
        <button type="submit" class="button">
          Open a matching table now
        </button>
      </form>
    </section>
  )
}

export function RequestPage(props: RequestPageProps) {
  const r = props.request
  const self = `/requests/${encodeURIComponent(r.id)}`
  return (
    <>
      <div class="page-head">
        <h1>{r.title || 'Your request'}</h1>
        <StatusBadge status={r.status} />
      </div>
      {props.notice ? <Alert kind="success">{props.notice}</Alert> : null}
      {props.error ? <Alert kind="error">{props.error}</Alert> : null}
      <section class="card request-status" aria-label="Status">
        <Pulse request={r} now={props.now} cadence={props.cadence ?? null} />
        {r.status_reason ? <p>{r.status_reason}</p> : null}
        <NextStep request={r} />
      </section>
      {r.reservations.length > 0 || r.status === 'confirmed' || r.status === 'awaiting_verification' ? (
        <section aria-labelledby="reservation-heading">
          <h2 id="reservation-heading">Reservation</h2>
          <ul class="items">
            {r.reservations.map((reservation) => (
              <ReservationItem reservation={reservation} />
            ))}
          </ul>
        </section>
      ) : (
        <section aria-labelledby="reservation-heading">
          <h2 id="reservation-heading">Reservation</h2>
          <p class="empty">No reservation{OPEN.has(r.status) ? ' yet' : ''}.</p>
        </section>
      )}
      <section class="card" aria-labelledby="spec-heading">
        <h2 id="spec-heading">What it asks for</h2>
        <SpecSummary request={r} venues={props.venues} />
      </section>
      <section aria-labelledby="alerts-heading">
        <h2 id="alerts-heading">Tables found</h2>
        {props.found.total === 0 ? (
          <p class="empty">None yet.</p>
        ) : (
          <>
            <p class="muted" id="found-summary">
              {plural(props.found.total, 'restaurant-date')} from {plural(props.tableAlerts, 'alert')}, the newest alert first. Each table
              opens that slot on the platform.
            </p>
            <DigestGroups groups={props.found.items} timeZone={r.timezone} />
          </>
        )}
        <Pager page={props.found} path={self} param="alerts" label="tables found" />
      </section>
      {props.notices.total > 0 ? (
        <section aria-labelledby="notices-heading">
          <h2 id="notices-heading">Other notices ({props.notices.total})</h2>
          <ul class="items alerts">
            {props.notices.items.map((a) => (
              <li class="item">
                <p class="item-title">{a.title}</p>
                <p class="body-text">{a.body}</p>
                <p class="muted">
                  <time datetime={new Date(a.createdAt).toISOString()}>{formatInstant(a.createdAt, r.timezone)}</time>
                </p>
              </li>
            ))}
          </ul>
          <Pager page={props.notices} path={self} param="notices" label="notices" />
        </section>
      ) : null}
      <section aria-labelledby="trace-heading">
        <h2 id="trace-heading">What Tablewatch did (newest first)</h2>
        {props.trace.items.length === 0 ? (
          <p class="empty">Nothing yet.</p>
        ) : (
          <ul class="trace">
            {props.trace.items.map((t) => (
              <li>
                <time class="muted" datetime={t.at}>
                  {formatInstant(Date.parse(t.at), r.timezone)}
                </time>{' '}
                {t.message}
              </li>
            ))}
          </ul>
        )}
        <Pager page={props.trace} path={self} param="trace" label="trace entries" />
      </section>
      {props.demoControl && r.status === 'active' ? <DemoControl csrfToken={props.csrfToken} action={`${self}/demo-table`} /> : null}
      {OPEN.has(r.status) ? (
        <section class="card" aria-labelledby="stop-heading">
          <h2 id="stop-heading">Stop watching</h2>
          <p>Stopping ends monitoring. It never cancels a reservation: to cancel or change one, use the platform's own account page.</p>
          <ConfirmLink href={`${self}/stop`}>Stop watching…</ConfirmLink>
        </section>
      ) : null}
    </>
  )
}
