// The user's requests, newest first, each with its status and a link to its page.
import type { RequestView, Restaurant } from '../../requests/schemas'
import { StatusBadge } from '../components/spec-summary'
import { formatCalendarDate, formatClock, zoneName } from '../format'
import { MODE_WORDS, people } from '../spec-words'

export interface RequestsPageProps {
  requests: RequestView[]
  venues: Restaurant[]
  nextCursor: string | null
}

function RequestItem(props: { request: RequestView; venues: Map<number, Restaurant> }) {
  const r = props.request
  const names = r.venue_ids.map((id) => props.venues.get(id)?.name ?? `Restaurant #${id}`).join(', ')
  const dates =
    r.dates.length === 1 ? formatCalendarDate(r.dates[0] ?? '') : `${r.dates.length} dates from ${formatCalendarDate(r.dates[0] ?? '')}`
  return (
    <li class="item">
      <div class="item-head">
        <h2 class="item-title">
          <a href={`/requests/${encodeURIComponent(r.id)}`}>{r.title || names}</a>
        </h2>
        <StatusBadge status={r.status} />
      </div>
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

export function RequestsPage(props: RequestsPageProps) {
  const venues = new Map(props.venues.map((v) => [v.venue_id, v]))
  return (
    <>
      <h1>Your requests</h1>
      <p class="lead">Requests your assistants created for you. Open one to see what Tablewatch saw and did.</p>
      {props.requests.length === 0 ? (
        <p class="empty">No requests yet. Ask an assistant connected on the Assistants page to watch for a table.</p>
      ) : (
        <ul class="items">
          {props.requests.map((request) => (
            <RequestItem request={request} venues={venues} />
          ))}
        </ul>
      )}
      {props.nextCursor ? (
        <p>
          <a href={`/requests?cursor=${encodeURIComponent(props.nextCursor)}`}>Older requests</a>
        </p>
      ) : null}
    </>
  )
}
