// What changed between two versions of a request, field by field ("old → new"), for the
// approval page: the user approves the new version knowing exactly what moved.

import { formatCalendarDate, formatClock, formatDateTime } from '../../html/format'
import { feeLimitsInWords, MODE_WORDS, people, SEATING_WORDS } from '../../html/spec-words'
import type { RequestSpec } from '../../request-use-cases/schemas'
import type { Restaurant } from '../../venues/schema'

interface Change {
  field: string
  before: string
  after: string
}

function words(spec: RequestSpec, venues: Map<number, Restaurant>): [string, string][] {
  return [
    ['Title', spec.title || '(none)'],
    ['Restaurants', spec.venue_ids.map((id) => venues.get(id)?.name ?? `Restaurant #${id}`).join(', ')],
    ['Dates', spec.dates.map(formatCalendarDate).join(', ')],
    ['Time', `${formatClock(spec.earliest_time)} to ${formatClock(spec.latest_time)}`],
    ['Party', people(spec.party_size)],
    ['Seating', SEATING_WORDS[spec.seating]],
    ['What to do', MODE_WORDS[spec.mode]],
    ['Fee limits', feeLimitsInWords(spec)],
    ['Watching ends', formatDateTime(Date.parse(spec.expires_at))],
  ]
}

export function specChanges(before: RequestSpec, after: RequestSpec, venues: Restaurant[]): Change[] {
  const byId = new Map(venues.map((v) => [v.venue_id, v]))
  const old = words(before, byId)
  return words(after, byId).flatMap(([field, now], i) => {
    const was = old[i]?.[1] ?? ''
    return was === now ? [] : [{ field, before: was, after: now }]
  })
}

export function SpecChanges(props: { changes: Change[]; approved: boolean }) {
  return (
    <section class="card changes" aria-labelledby="changes-heading">
      <h2 id="changes-heading">What changed since you {props.approved ? 'approved it' : 'last saw it'}</h2>
      {props.changes.length === 0 ? (
        <p>Nothing you would see: the request is the same as then.</p>
      ) : (
        <dl class="facts">
          {props.changes.map((c) => (
            <>
              <dt>{c.field}</dt>
              <dd>
                <del>{c.before}</del> → <ins>{c.after}</ins>
              </dd>
            </>
          ))}
        </dl>
      )}
    </section>
  )
}
