// The home page of a signed-in diner: what is next. Approvals waiting (each opens the approval
// page, where the exact terms are shown before Approve); the requests being watched, tables found
// first ("36 tables found · soonest Wed, Dec 2 · 7:00 PM ET", the soonest requests first); and
// upcoming verified reservations. The setup checklist stays on top only until setup is done.

import type { FoundSummary } from '../../alerts/found-tables'
import { Alert } from '../../html/components/form'
import { ago, formatCalendarDate, formatClock, formatLocal } from '../../html/format'
import { people } from '../../html/spec-words'
import { zoneName } from '../../lib/zone-name'
import { instantOf } from '../../lib/zoned-time'
import type { RequestView } from '../../request-use-cases/schemas'
import type { Reservation } from '../../reservations/schema'
import type { SetupProgress } from '../../setup/setup-progress'
import type { Restaurant } from '../../venues/schema'
import { FoundLine } from '../components/found-line'
import { SetupChecklist } from '../components/setup-checklist'

export interface DinerHomeProps {
  setup: SetupProgress | null
  welcome: boolean
  requests: RequestView[]
  venues: Restaurant[]
  upcoming: Reservation[]
  /** What each open request found so far, by request id. */
  found: ReadonlyMap<string, FoundSummary>
  now: number
}

/** "Birthday · Pomelo Garden · Sat, Dec 5 · 7:00 PM–9:00 PM ET · 6 people" */
function dinnerWords(r: RequestView, venues: Map<number, Restaurant>): string {
  const names = r.venue_ids.map((id) => venues.get(id)?.name ?? `Restaurant #${id}`)
  const where = names.length <= 2 ? names.join(' and ') : `${names[0]} and ${names.length - 1} more`
  const first = r.dates[0] ?? ''
  const dates = r.dates.length === 1 ? formatCalendarDate(first) : `${formatCalendarDate(first)} and ${r.dates.length - 1} more dates`
  const zone = zoneName(r.timezone, Date.parse(`${first}T12:00:00Z`))
  const window = `${formatClock(r.earliest_time)}–${formatClock(r.latest_time)} ${zone}`
  return [where, dates, window, people(r.party_size)].join(' · ')
}

function Approvals(props: { requests: RequestView[]; venues: Map<number, Restaurant> }) {
  return (
    <section class="card" aria-labelledby="approvals-heading">
      <h2 id="approvals-heading">Waiting for your approval ({props.requests.length})</h2>
      <ul class="items plain">
        {props.requests.map((r) => (
          <li class="home-item">
            <p class="home-title">{r.title || 'A table'}</p>
            <p class="muted">{dinnerWords(r, props.venues)}</p>
            {r.action_url ? (
              <a class="button" href={r.action_url}>
                Review and approve
              </a>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  )
}

function Upcoming(props: { reservations: Reservation[] }) {
  return (
    <section class="card" aria-labelledby="upcoming-heading">
      <h2 id="upcoming-heading">Upcoming reservations</h2>
      {props.reservations.length === 0 ? (
        <p class="empty">No upcoming reservations. A table booked and verified on the platform appears here.</p>
      ) : (
        <ul class="items plain">
          {props.reservations.map((r) => (
            <li class="home-item">
              <p class="home-title">
                {r.venue_name}, {formatLocal(r.date, r.time, r.time_zone)}
              </p>
              <p class="muted">
                {people(r.party_size)} · {r.seating} · booked and verified
              </p>
              <p class="row">
                <a href={`/reservations/${r.reservation_id}.ics`} download>
                  Add to my calendar
                </a>
                <a href={r.manage_url} rel="noopener noreferrer" target="_blank">
                  Open on the platform
                </a>
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

/** Requests with tables first, the soonest table first; then the others, as listed. */
function tablesFirst(requests: RequestView[], found: ReadonlyMap<string, FoundSummary>): RequestView[] {
  const soonest = (r: RequestView) => {
    const s = found.get(r.id)?.soonest
    return s ? instantOf(s.date, s.time, s.timeZone) : Number.POSITIVE_INFINITY
  }
  return [...requests].sort((a, b) => soonest(a) - soonest(b))
}

function WatchedRequest(props: { request: RequestView; found: FoundSummary | undefined; venues: Map<number, Restaurant>; now: number }) {
  const r = props.request
  const page = `/requests/${encodeURIComponent(r.id)}`
  const checked = r.last_checked_at ? Date.parse(r.last_checked_at) : null
  const hasTables = (props.found?.count ?? 0) > 0
  return (
    <li class="home-item">
      <p class="home-title">
        <a href={page}>{r.title || 'A table'}</a>
      </p>
      {r.status === 'awaiting_verification' ? (
        <p class="found-line">
          <strong>Booked: being verified on the platform.</strong>
        </p>
      ) : props.found && hasTables ? (
        <FoundLine summary={props.found} now={props.now} />
      ) : (
        <p class="found-line">
          No table found yet{checked === null ? '' : <span class="muted"> · checked {ago(checked, props.now)}</span>}
        </p>
      )}
      <p class="muted">{dinnerWords(r, props.venues)}</p>
      {hasTables && r.status === 'active' ? (
        <a class="button small" href={`${page}#tables`}>
          See the tables
        </a>
      ) : null}
    </li>
  )
}

function Watching(props: {
  requests: RequestView[]
  found: ReadonlyMap<string, FoundSummary>
  venues: Map<number, Restaurant>
  now: number
}) {
  return (
    <section class="card" aria-labelledby="watching-heading">
      <h2 id="watching-heading">Watching ({props.requests.length})</h2>
      {props.requests.length === 0 ? (
        <p class="empty">Nothing is being watched. Ask your assistant for a table.</p>
      ) : (
        <ul class="items plain">
          {tablesFirst(props.requests, props.found).map((r) => (
            <WatchedRequest request={r} found={props.found.get(r.id)} venues={props.venues} now={props.now} />
          ))}
        </ul>
      )}
      <p>
        <a href="/requests">All your requests</a>
      </p>
    </section>
  )
}

export function DinerHome(props: DinerHomeProps) {
  const venues = new Map(props.venues.map((v) => [v.venue_id, v]))
  const waiting = props.requests.filter((r) => r.status === 'needs_approval')
  const watching = props.requests.filter((r) => r.status === 'active' || r.status === 'awaiting_verification')
  return (
    <>
      {props.welcome ? <Alert kind="success">Welcome! Your account is ready and you are signed in.</Alert> : null}
      <h1>What is next</h1>
      {props.setup ? <SetupChecklist progress={props.setup} /> : null}
      {waiting.length > 0 ? <Approvals requests={waiting} venues={venues} /> : null}
      <Watching requests={watching} found={props.found} venues={venues} now={props.now} />
      <Upcoming reservations={props.upcoming} />
    </>
  )
}
