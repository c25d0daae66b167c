// One-line summaries for the model beside each structured result (the JSON of the result
// follows them in the text). They repeat the rule that matters for what the result shows
// (approval link, verification), so a model reading only text still behaves.
import type { PreviewResult, RequestView } from '../request-use-cases/schemas'
import type { Reservation } from '../reservations/schema'
import type { Restaurant } from '../venues/schema'
import { RULES } from './rules'

export function restaurantsSummary(restaurants: Restaurant[]): string {
  if (restaurants.length === 0) return 'No restaurants matched. Try another spelling, or the neighborhood or city.'
  const names = restaurants.map((r) => `${r.name} (venue_id ${r.venue_id}, ${r.time_zone})`).join('; ')
  return `${restaurants.length} restaurant(s): ${names}. Send a venue's time_zone as the request's timezone.`
}

/** Where the user connects (or reconnects) the platform account the service watches and books with. */
function settingsHint(preview: PreviewResult, baseUrl: string): string {
  const reason = preview.executor.reason ?? ''
  return !preview.executor.ready && /not_connected|reauth/.test(reason)
    ? ` Ask the user to connect their reservation platform account in Settings: ${baseUrl}/settings`
    : ''
}

export function previewSummary(preview: PreviewResult, baseUrl: string): string {
  const { spec } = preview
  const names = preview.restaurants.map((r) => r.name).join(', ')
  const ready = preview.executor.ready ? 'ready' : `not ready (${preview.executor.reason ?? 'unknown'})`
  const task = spec.mode === 'auto_book' ? 'book' : 'watch'
  return `Valid. Confirm with the user before creating: ${names}; ${spec.dates.join(', ')}; ${spec.earliest_time}–${spec.latest_time} ${spec.timezone}; party of ${spec.party_size}; seating ${spec.seating}; mode ${spec.mode}; watching until ${spec.expires_at}. The service is ${ready} to ${task} for this user.${settingsHint(preview, baseUrl)}`
}

function statusLine(view: RequestView): string {
  switch (view.status) {
    case 'needs_approval':
      return `Give the user this approval link: ${view.action_url ?? '(missing)'} — ${RULES.actionUrl}`
    case 'active':
      return 'The service is watching for a matching table.'
    case 'awaiting_verification':
      return `A booking may have been submitted. ${RULES.verified}`
    case 'confirmed':
      return view.reservations.some((r) => r.verified)
        ? 'A verified reservation exists for this request.'
        : 'The request is confirmed; read the reservation (reservations:read) to see it verified.'
    case 'expired':
      return 'It expired without a booking; nothing was booked.'
    case 'stopped':
      return `Monitoring stopped. ${RULES.stopNeverCancels}`
    case 'revoked':
      return 'The token or connection that created it was revoked; the user must reconnect and create a new request.'
  }
}

export function requestSummary(view: RequestView): string {
  return `Request ${view.id} is ${view.status} (revision ${view.revision}). ${statusLine(view)}`
}

export function listSummary(page: { requests: RequestView[]; next_cursor: string | null }): string {
  if (page.requests.length === 0) return 'No requests yet for this connection.'
  const items = page.requests.map((v) => `${v.id} ${v.status}${v.title ? ` (${v.title})` : ''}`).join('; ')
  const more = page.next_cursor ? ` More: call again with cursor "${page.next_cursor}".` : ''
  return `${page.requests.length} request(s), newest first: ${items}.${more}`
}

export function reservationSummary(reservation: Reservation): string {
  const when = `${reservation.date} ${reservation.time}, party of ${reservation.party_size}`
  return reservation.verified
    ? `Reservation ${reservation.reservation_id} (${when}) is verified: the table is booked. Manage or cancel it at ${reservation.manage_url}.`
    : `Reservation ${reservation.reservation_id} (${when}) is not verified yet. ${RULES.verified}`
}
