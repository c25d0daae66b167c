// The user's requests: open ones first (waiting for approval, watching, being verified), then
// finished ones; a confirmed request shows the table it booked.

import { formatCalendarDate, formatClock, formatLocal } from '../../html/format'
import { MODE_WORDS, people } from '../../html/spec-words'
import { zoneName } from '../../lib/zone-name'
import type { RequestView } from '../../request-use-cases/schemas'
import type { Reservation } from '../../reservations/schema'
import type { Restaurant } from '../../venues/schema'
import { StatusBadge } from '../components/spec-summary'

export interface RequestsPageProps {
  requests: RequestView[]
  venues: Restaurant[]
  nextCursor: string | null
}

const OPEN = new Set(['needs_approval', 'active', 'awaiting_verification'])

function BookedTable(props: { reservation: Reservation }) {
  const r = props.reservation
  return (
    <p class="booked-table">
      <strong>Booked:</strong> {r.venue_name}, {formatLocal(r.date, r.time, r.time_zone)}, {people(r.party_size)}, {r.seating}.
    </p>
  )
}

function RequestItem(props: { request: RequestView; venues: Map<number, Restaurant> }) {
  const r = props.request
  const names = r.venue_ids.map((id) => props.venues.get(id)?.name ?? `Restaurant #${id}`).join(', ')
  const dates =
    r.dates.length === 1 ? formatCalendarDate(r.dates[0] ?? '') : `${r.dates.length} dates from ${formatCalendarDate(r.dates[0] ?? '')}`
  const booked = r.status === 'confirmed' ? r.reservations.find((x) => x.verified) : undefined
  return (
    <li class={booked ? 'item booked' : 'item'}>
      <div class="item-head">
        <h3 class="item-title">
          <a href={`/requests/${encodeURIComponent(r.id)}`}>{r.title || names}</a>
        </h3>
        <StatusBadge status={r.status} />
      </div>
      {booked ? <BookedTable reservation={booked} /> : null}
      <p>
        {r.title ? `${names}. ` : ''}
        {dates}, {formatClock(r.earliest_time)}–{formatClock(r.latest_time)} {zoneName(r.timezone, Date.parse(r.expires_at))},{' '}
        {people(r.party_size)}. {MODE_WORDS[r.mode]}.
      </p>
      {r.status === 'needs_approval' && r.action_url ? (
        <p>
          <a href={r.action_url}>Review and approve</a>
        </p>
      ) : null}
    </li>
  )
}

function Group(props: { id: string; title: string; requests: RequestView[]; venues: Map<number, Restaurant>; empty: string }) {
  return (
    <section aria-labelledby={props.id}>
      <h2 id={props.id}>
        {props.title} ({props.requests.length})
      </h2>
      {props.requests.length === 0 ? (
        <p class="empty">{props.empty}</p>
      ) : (
        <ul class="items">
          {props.requests.map((request) => (
            <RequestItem request={request} venues={props.venues} />
          ))}
        </ul>
      )}
    </section>
  )
}

export function RequestsPage(props: RequestsPageProps) {
  const venues = new Map(props.venues.map((v) => [v.venue_id, v]))
  const open = props.requests.filter((r) => OPEN.has(r.status))
  const finished = props.requests.filter((r) => !OPEN.has(r.status))
  return (
    <>
      <h1>Your requests</h1>
      <p class="lead">Requests your assistants created for you. Open one to see what Tablewatch saw and did.</p>
      {props.requests.length === 0 ? (
        <div class="card empty-state">
          <p>No requests yet. Requests come from an assistant you connect: it asks Tablewatch to watch for a table for you.</p>
          <p>
            <a class="button" href="/assistants">
              Connect an assistant
            </a>
          </p>
        </div>
      ) : (
        <>
          <Group id="open-heading" title="Open" requests={open} venues={venues} empty="Nothing open on this page." />
          <Group id="finished-heading" title="Finished" requests={finished} venues={venues} empty="Nothing finished on this page." />
        </>
      )}
      {props.nextCursor ? (
        <p>
          <a href={`/requests?cursor=${encodeURIComponent(props.nextCursor)}`}>Older requests</a>
        </p>
      ) : null}
    </>
  )
}
