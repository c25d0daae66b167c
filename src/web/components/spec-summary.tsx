// What a request asks for, in words: used by the approval page and the request page.

import type { Status } from '../../core/status'
import { formatCalendarDate, formatClock, formatDateTime } from '../../html/format'
import { feeLimitsInWords, MODE_WORDS, people, SEATING_WORDS, STATUS_WORDS } from '../../html/spec-words'
import { zoneName } from '../../lib/zone-name'
import type { RequestView } from '../../request-use-cases/schemas'
import type { Restaurant } from '../../venues/schema'

export function StatusBadge(props: { status: Status }) {
  return <span class={`status status-${props.status.replaceAll('_', '-')}`}>{STATUS_WORDS[props.status]}</span>
}

/** "New days open at 10:00 AM ET, 30 days ahead — learned from the platform", and the notes' rule when it disagrees. */
function ReleaseRuleLine(props: { venue: Restaurant; at: number }) {
  const rule = props.venue.release_rule
  if (!rule) return null
  const zone = zoneName(props.venue.time_zone, props.at)
  const ahead = (r: { days_in_advance: number; time_of_day: string }) =>
    `${formatClock(r.time_of_day)} ${zone}, ${r.days_in_advance} ${r.days_in_advance === 1 ? 'day' : 'days'} ahead`
  const source = rule.source === 'learned' ? 'learned from the platform' : 'as the restaurant’s notes say'
  return (
    <span class="release-rule muted">
      New days open at {ahead(rule)} — {source}
      {rule.stated ? ` (its notes say ${ahead(rule.stated)})` : ''}.
    </span>
  )
}

function Restaurants(props: { ids: number[]; venues: Restaurant[]; at: number }) {
  const byId = new Map(props.venues.map((v) => [v.venue_id, v]))
  return (
    <ul class="plain">
      {props.ids.map((id) => {
        const venue = byId.get(id)
        return venue ? (
          <li>
            <strong>{venue.name}</strong>, {venue.neighborhood ? `${venue.neighborhood}, ` : ''}
            {venue.city}
            {venue.release_rule ? (
              <>
                <br />
                <ReleaseRuleLine venue={venue} at={props.at} />
              </>
            ) : null}
          </li>
        ) : (
          <li>Restaurant #{id} (not in the catalog)</li>
        )
      })}
    </ul>
  )
}

/** "Between 5:00 PM and 10:00 PM ET" in the request's (the venues') zone. */
function TimeWindow(props: { request: Pick<RequestView, 'earliest_time' | 'latest_time' | 'timezone' | 'expires_at'> }) {
  const r = props.request
  const zone = zoneName(r.timezone, Date.parse(r.expires_at))
  return (
    <>
      Between {formatClock(r.earliest_time)} and {formatClock(r.latest_time)} {zone}
    </>
  )
}

export function SpecSummary(props: { request: RequestView; venues: Restaurant[] }) {
  const r = props.request
  return (
    <dl class="facts spec">
      <dt>{r.venue_ids.length === 1 ? 'Restaurant' : 'Restaurants'}</dt>
      <dd>
        <Restaurants ids={r.venue_ids} venues={props.venues} at={Date.parse(r.expires_at)} />
      </dd>
      <dt>{r.dates.length === 1 ? 'Date' : 'Dates'}</dt>
      <dd>
        <ul class="plain">
          {r.dates.map((d) => (
            <li>{formatCalendarDate(d)}</li>
          ))}
        </ul>
      </dd>
      <dt>Time</dt>
      <dd>
        <TimeWindow request={r} />
      </dd>
      <dt>Party</dt>
      <dd>{people(r.party_size)}</dd>
      <dt>Seating</dt>
      <dd>{SEATING_WORDS[r.seating]}</dd>
      <dt>What to do</dt>
      <dd>{MODE_WORDS[r.mode]}</dd>
      {r.mode === 'auto_book' ? (
        <>
          <dt>Fee limits</dt>
          <dd>{feeLimitsInWords(r)} No deposits or prepaid meals.</dd>
        </>
      ) : null}
      <dt>Watching ends</dt>
      <dd>{formatDateTime(Date.parse(r.expires_at))}</dd>
    </dl>
  )
}
