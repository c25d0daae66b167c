// The home page of a signed-in diner: what is next. Approvals waiting (each
// opens the approval page, where the exact terms are shown before Approve), upcoming verified
// reservations (an .ics and the platform link), and the requests being watched with their last
// check. The setup checklist stays on top only until setup is done.

import { Alert } from '../../html/components/form'
import { ago, formatCalendarDate, formatClock, formatLocal } from '../../html/format'
import { people } from '../../html/spec-words'
import { zoneName } from '../../lib/zone-name'
import type { RequestView } from '../../requests/schemas'
import type { Reservation } from '../../reservations/schema'
import type { SetupProgress } from '../../setup/setup-progress'
import type { Restaurant } from '../../venues/schema'
import { SetupChecklist } from '../components/setup-checklist'

export interface DinerHomeProps {
  setup: SetupProgress | null
  welcome: boolean
  requests: RequestView[]
  venues: Restaurant[]
  upcoming: Reservation[]
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
                  Add to calendar (.ics)
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

function Watching(props: { requests: RequestView[]; venues: Map<number, Restaurant>; now: number }) {
  return (
    <section class="card" aria-labelledby="watching-heading">
      <h2 id="watching-heading">Watching ({props.requests.length})</h2>
      {props.requests.length === 0 ? (
        <p class="empty">Nothing is being watched. Ask your assistant for a table.</p>
      ) : (
        <ul class="items plain">
          {props.requests.map((r) => {
            const checked = r.last_checked_at ? Date.parse(r.last_checked_at) : null
            return (
              <li class="home-item">
                <p class="home-title">
                  <a href={`/requests/${encodeURIComponent(r.id)}`}>{r.title || 'A table'}</a>
                </p>
                <p class="muted">{dinnerWords(r, props.venues)}</p>
                <p class="muted last-check">
                  {r.status === 'awaiting_verification'
                    ? 'Booked: being verified on the platform.'
                    : checked === null
                      ? 'Not checked yet.'
                      : `Last checked ${ago(checked, props.now)}.`}
                </p>
              </li>
            )
          })}
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
      <Upcoming reservations={props.upcoming} />
      <Watching requests={watching} venues={venues} now={props.now} />
    </>
  )
}
