// Venues an auto_book request cannot book (a captcha, Tock's tables, a concierge, transfers, another
// platform, closed for now: docs/platform.md, "Venues and search"), said before the request is approved: preview and create answer with a warning
// for each (the request is still made: its tables there are alerted with a link to book on the
// platform, and its other venues are booked as usual), and the approval page shows the same words.
// docs/decisions/booking.md says why a warning and not a refusal.
import { findVenues, updateBookingBlockers, type VenueRow } from '../db/venues'
import type { Deps } from '../runtime/deps'
import { BLOCKER_WORDS } from '../venues/blocker-words'
import type { RequestSpec, RequestWarning } from './schemas'

/** The warnings of a spec whose venues' catalog rows are these: only auto_book requests have any. */
export function venueWarningsOf(spec: Pick<RequestSpec, 'mode' | 'venue_ids'>, rows: readonly VenueRow[]): RequestWarning[] {
  if (spec.mode !== 'auto_book') return []
  return spec.venue_ids.flatMap((id) => {
    const row = rows.find((r) => r.venueId === id)
    if (!row?.bookingBlocker) return []
    const message = `Tablewatch cannot book ${row.name} (${BLOCKER_WORDS[row.bookingBlocker]}). For ${row.name} this request alerts you when a table fits, with a link to book it on the platform; it books at your other restaurants as usual.`
    return [{ code: 'venue_not_bookable', venue_id: id, message }]
  })
}

/**
 * The warnings of an auto_book spec about to be previewed or created, from the platform's venue
 * data read now (a key-only read per venue; a venue that does not answer keeps what the catalog
 * knew), so an assistant and the user know before approving.
 */
export async function venueWarnings(deps: Deps, spec: RequestSpec): Promise<RequestWarning[]> {
  if (spec.mode !== 'auto_book') return []
  const fresh = await Promise.all(spec.venue_ids.map((id) => deps.platform.venueDetails(id)))
  await updateBookingBlockers(
    deps.db,
    fresh.flatMap((d) => (d.kind === 'ok' ? [{ venueId: d.value.venueId, bookingBlocker: d.value.bookingBlocker }] : [])),
  )
  return venueWarningsOf(spec, await findVenues(deps.db, spec.venue_ids))
}
