// One request, as a diner opens it from an alert: first what matters now — the booked table, or
// the tables found (soonest first, each opening the restaurant's page on the platform) — then a
// line on when it was last checked, how long it still runs and what to do next. The details fold
// below: what it asks for, how alerts work, the other notices and what Tablewatch did, each paged.
// Stop asks first and cancels nothing. Moments are in the viewer's zone, dinners in the restaurant's.

import type { FoundGroup, FoundSummary } from '../../alerts/found-tables'
import type { InboxItem } from '../../alerts/inbox'
import { ConfirmLink } from '../../html/components/confirm'
import { Alert, CsrfInput } from '../../html/components/form'
import { type PageOf, Pager } from '../../html/components/pager'
import { ago, duration, formatDateTime, formatLocal } from '../../html/format'
import { people } from '../../html/spec-words'
import { dollars } from '../../lib/money'
import type { RequestView } from '../../request-use-cases/schemas'
import type { Reservation } from '../../reservations/schema'
import type { Restaurant } from '../../venues/schema'
import type { Cadence } from '../../watching/cadence'
import { FoundGroups } from '../components/found-groups'
import { FoundLine } from '../components/found-line'
import { SpecSummary, StatusBadge } from '../components/spec-summary'

export interface RequestPageProps {
  csrfToken: string
  now: number
  request: RequestView
  venues: Restaurant[]
  /** The tables its alerts listed that are still ahead, one group per restaurant-date, soonest first; paged. */
  found: PageOf<FoundGroup>
  summary: FoundSummary
  /** The alerts that list no tables (expiry, booked, health, approval while it waits), newest first; paged. */
  notices: PageOf<InboxItem>
  /** The request's whole kept trace (newest first), paged. */
  trace: PageOf<{ at: string; message: string }>
  /** The user's alert gap, in minutes (Settings). */
  gapMinutes: number
  /** A folded section the page was asked to open (its pager was used). */
  open?: 'notices' | 'trace' | undefined
  notice?: string | undefined
  error?: string | undefined
  /** Local development with the sandbox platform only (core/deployment.ts sandboxDemoEnabled). */
  demoControl?: boolean | undefined
  /** How often the platform is checked now, and planned (requests/view.ts checkCadence); null: not known. */
  cadence?: Cadence | null | undefined
}

const OPEN = new Set(['needs_approval', 'active', 'awaiting_verification'])
const BOOKED = new Set(['confirmed', 'awaiting_verification'])

function Cancellation(props: { reservation: Reservation }) {
  const r = props.reservation
  if (!r.cancellation_fee_per_person) return <>No cancellation fee.</>
  const fee = `${dollars(r.cancellation_fee_per_person)} per person`
  if (!r.free_cancellation_until) return <>Cancellation fee: {fee}.</>
  return (
    <>
      Free to cancel until <strong>{formatDateTime(Date.parse(r.free_cancellation_until))}</strong>; after that the restaurant charges {fee}
      .
    </>
  )
}

function ReservationItem(props: { reservation: Reservation }) {
  const r = props.reservation
  return (
    <li class="item reservation booked">
      <div class="item-head">
        <h3>
          {r.venue_name}, {formatLocal(r.date, r.time, r.time_zone)}
        </h3>
        {r.verified ? (
          <span class="status status-confirmed">Booked and verified</span>
        ) : (
          <span class="status status-awaiting-verification">Being verified</span>
        )}
      </div>
      {r.verified ? null : <p>Tablewatch is confirming this booking with the platform. Do not count on it until it shows as verified.</p>}
      <dl class="facts">
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
              Add to my calendar
            </a>
            <a href="/calendar">All your reservations in your calendar app</a>
          </>
        ) : null}
      </p>
    </li>
  )
}

/** What the user should do now, in one sentence (and the one button it needs). */
function NextStep(props: { request: RequestView }) {
  const r = props.request
  const notReady = r.status === 'active' && !r.executor.ready
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
        <strong>Next:</strong> Tablewatch cannot {r.mode === 'auto_book' ? 'book' : 'check for tables'} until your platform account works.{' '}
        <a href="/settings#platform">Check it in Settings</a>.
      </p>
    )
  const words: Record<RequestView['status'], string> = {
    needs_approval: 'Waiting for your approval.',
    active:
      r.mode === 'auto_book'
        ? 'Nothing to do: Tablewatch books the first table that fits, within your limits, and tells you.'
        : 'Nothing to do: you get an alert when a table appears, and book it yourself on the platform.',
    awaiting_verification: 'Tablewatch is confirming the booking with the platform. Do not count on it until it says booked.',
    confirmed: 'Nothing to do: your table is booked. Manage or cancel it on the platform.',
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
  const checked = r.last_checked_at ? Date.parse(r.last_checked_at) : null
  const ends = Date.parse(r.expires_at)
  const watching = r.status === 'active' || r.status === 'awaiting_verification'
  return (
    <dl class="facts pulse">
      {watching || (checked !== null && OPEN.has(r.status)) ? (
        <>
          <dt>Last checked</dt>
          <dd id="last-checked">
            {checked === null ? (
              'Not checked yet'
            ) : (
              <time datetime={r.last_checked_at ?? ''} title={formatDateTime(checked)}>
                {ago(checked, props.now)}
              </time>
            )}
          </dd>
        </>
      ) : null}
      {props.cadence ? <CadenceWords cadence={props.cadence} /> : null}
      {OPEN.has(r.status) ? (
        <>
          <dt>Watching ends</dt>
          <dd id="expires-in">
            {ends > props.now ? `in ${duration(ends - props.now)}` : 'now'} ({formatDateTime(ends)})
          </dd>
        </>
      ) : null}
    </dl>
  )
}

/** The tables found, soonest first: what the diner came for. */
function Tables(props: { request: RequestView; found: PageOf<FoundGroup>; summary: FoundSummary; now: number; self: string }) {
  const r = props.request
  const booked = BOOKED.has(r.status)
  if (booked && props.found.total === 0) return null
  const body = (
    <>
      {props.found.total === 0 ? (
        <p class="empty" id="found-summary">
          {r.status === 'active' || r.status === 'needs_approval'
            ? 'No table yet. You get an alert the moment one opens.'
            : 'No table was found while it was watched.'}
        </p>
      ) : (
        <>
          <div id="found-summary">
            <FoundLine summary={props.summary} now={props.now} />
          </div>
          <p class="muted">Each time opens the restaurant's page on the platform on that date, where you book it.</p>
          <FoundGroups groups={props.found.items} />
        </>
      )}
      <Pager page={props.found} path={props.self} param="alerts" label="tables found" words={['Sooner', 'Later']} />
    </>
  )
  if (booked)
    return (
      <details class="fold" id="tables">
        <summary>Tables found before it was booked ({props.summary.count})</summary>
        {body}
      </details>
    )
  return (
    <section aria-labelledby="alerts-heading" id="tables" class="tables">
      <h2 id="alerts-heading">Tables found</h2>
      {body}
    </section>
  )
}

/** The sandbox's demo control: never rendered outside local development. */
function DemoControl(props: { csrfToken: string; action: string }) {
  return (
    <section class="card" aria-labelledby="demo-heading">
      <h2 id="demo-heading">Sandbox demo</h2>
      <p>
        The sandbox platform can open a free table that fits this request, on one of its dates and in its time window. Tablewatch checks at
        once, so you get an alert (or, once you approved it, a booking) within a minute. Local development only.
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

/** The alert rule in one place, with the user's own gap. */
function HowAlertsWork(props: { gapMinutes: number }) {
  const again =
    props.gapMinutes === 0
      ? 'as soon as it is back'
      : `again if it comes back, but not within ${props.gapMinutes} minutes of the alert that told it`
  return (
    <details class="fold" id="how-alerts-work">
      <summary>How alerts work</summary>
      <p>
        You get an alert the moment Tablewatch finds a table you have not been told about, in your inbox and as you chose in{' '}
        <a href="/settings#alerts">Settings</a>. A table that is taken is told {again}.
      </p>
    </details>
  )
}

function Notices(props: { notices: PageOf<InboxItem>; self: string; open: boolean }) {
  if (props.notices.total === 0) return null
  return (
    <details class="fold" id="notices" open={props.open}>
      <summary id="notices-heading">Other notices ({props.notices.total})</summary>
      <ul class="items alerts">
        {props.notices.items.map((a) => (
          <li class="item">
            <p class="item-title">{a.title}</p>
            <p class="body-text">{a.body}</p>
            <p class="muted">
              <time datetime={new Date(a.createdAt).toISOString()}>{formatDateTime(a.createdAt)}</time>
            </p>
          </li>
        ))}
      </ul>
      <Pager page={props.notices} path={props.self} param="notices" label="notices" />
    </details>
  )
}

function Trace(props: { trace: PageOf<{ at: string; message: string }>; self: string; open: boolean }) {
  return (
    <details class="fold" id="trace" open={props.open}>
      <summary id="trace-heading">What Tablewatch did</summary>
      {props.trace.items.length === 0 ? (
        <p class="empty">Nothing yet.</p>
      ) : (
        <ul class="trace">
          {props.trace.items.map((t) => (
            <li>
              <time class="muted" datetime={t.at}>
                {formatDateTime(Date.parse(t.at))}
              </time>{' '}
              {t.message}
            </li>
          ))}
        </ul>
      )}
      <Pager page={props.trace} path={props.self} param="trace" label="what Tablewatch did" />
    </details>
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
      {r.reservations.length > 0 ? (
        <section aria-labelledby="reservation-heading">
          <h2 id="reservation-heading">{r.reservations.length === 1 ? 'Your table' : 'Your tables'}</h2>
          <ul class="items">
            {r.reservations.map((reservation) => (
              <ReservationItem reservation={reservation} />
            ))}
          </ul>
        </section>
      ) : null}
      <Tables request={r} found={props.found} summary={props.summary} now={props.now} self={self} />
      <section class="card request-status" aria-label="Status">
        <Pulse request={r} now={props.now} cadence={props.cadence ?? null} />
        {r.status_reason ? <p>{r.status_reason}</p> : null}
        <NextStep request={r} />
      </section>
      <div class="folds">
        <details class="fold" id="details">
          <summary id="spec-heading">What it asks for</summary>
          <SpecSummary request={r} venues={props.venues} />
        </details>
        {OPEN.has(r.status) ? <HowAlertsWork gapMinutes={props.gapMinutes} /> : null}
        <Notices notices={props.notices} self={self} open={props.open === 'notices'} />
        <Trace trace={props.trace} self={self} open={props.open === 'trace'} />
      </div>
      {props.demoControl && r.status === 'active' ? <DemoControl csrfToken={props.csrfToken} action={`${self}/demo-table`} /> : null}
      {r.status === 'active' || r.status === 'needs_approval' ? <ModeSwitch request={r} csrfToken={props.csrfToken} self={self} /> : null}
      {OPEN.has(r.status) ? (
        <section class="card" aria-labelledby="stop-heading">
          <h2 id="stop-heading">Stop watching</h2>
          <p>Stopping ends the watching. It never cancels a reservation: to cancel or change one, use the platform's own account page.</p>
          <ConfirmLink href={`${self}/stop`}>Stop watching…</ConfirmLink>
        </section>
      ) : null}
    </>
  )
}

/** "Alert me" or "book for me", switched by the diner: booking asks for the approval of the exact spec first. */
function ModeSwitch(props: { request: RequestView; csrfToken: string; self: string }) {
  const r = props.request
  const booking = r.mode === 'auto_book'
  return (
    <section class="card" aria-labelledby="mode-heading">
      <h2 id="mode-heading">{booking ? 'Books for you' : 'Alerts you'}</h2>
      {booking ? (
        <form method="post" action={`${props.self}/mode`} class="inline-form">
          <p>Switch to alerts and Tablewatch books nothing from now on; you book from the alerts yourself.</p>
          <CsrfInput token={props.csrfToken} />
          <input type="hidden" name="revision" value={String(r.revision)} />
          <input type="hidden" name="mode" value="alert_only" />
          <button type="submit" class="button">
            Switch to alerts only
          </button>
        </form>
      ) : (
        <p>
          Tablewatch tells you about each table. <a href={`${props.self}/book-for-me`}>Let Tablewatch book for me…</a>
        </p>
      )}
    </section>
  )
}
