// The words of every alert the watcher sends, from the notices decide() asks for. Each names
// venue, date, time, party and seating, and links to the platform. A later digest layer can
// group notices before they are worded here.
import { weekdayOf } from '../../lib/zoned-time'
import type { Alert } from '../../notifications/notify'
import type { Notice, Recipient, Table } from '../events'
import { slotKey } from './match'

export const PLATFORM_WEB_URL = 'https://resy.com'
const ACCOUNT_PAGE = `${PLATFORM_WEB_URL}/account/reservations-and-notify`

export function bookingLink(urlSlug: string | null, venueId: number, day: string, partySize: number): string {
  const params = `date=${day}&seats=${partySize}`
  return urlSlug
    ? `${PLATFORM_WEB_URL}/venues/${encodeURIComponent(urlSlug)}?${params}`
    : `${PLATFORM_WEB_URL}/?venue_id=${venueId}&${params}`
}

const when = (day: string, time: string) => `${weekdayOf(day)} ${day} at ${time}`

/** The alerts of one notice: a table found is one alert per slot, each sent once (its dedupe key). */
export function alertsOf(to: Recipient, notice: Notice): Alert[] {
  switch (notice.type) {
    case 'tables_found':
      return notice.slots.map((slot) => tableFoundAlert(to, slot, notice.venueName, notice.urlSlug, notice.note))
    case 'booked':
      return [
        {
          userId: to.userId,
          requestId: to.requestId,
          dedupeKey: `${to.requestId}:booked`,
          kind: 'booked',
          title: `Booked and verified: ${notice.venueName}, ${notice.day} ${notice.time}`,
          body: `Your table at ${notice.venueName} ${when(notice.day, notice.time)} for ${to.partySize} is on your platform account. Manage or cancel it there.`,
          link: ACCOUNT_PAGE,
        },
      ]
    case 'unverified':
      return [
        {
          userId: to.userId,
          requestId: to.requestId,
          dedupeKey: `${to.requestId}:unverified`,
          kind: 'request_ended',
          title: `Please check your platform account: ${notice.venueName}, ${notice.day} ${notice.time}`,
          body: `A booking was submitted for ${notice.venueName} ${when(notice.day, notice.time)} but the platform never confirmed it either way. Check your reservations on the platform; this request will not book again.`,
          link: ACCOUNT_PAGE,
        },
      ]
    case 'reconnect':
      // Once per connection: `connectedAt` tells one connection from the next.
      return [
        {
          userId: to.userId,
          requestId: null,
          dedupeKey: `reconnect:${notice.connectedAt}`,
          kind: 'reconnect_needed',
          title: 'Reconnect your reservation platform account',
          body: 'The platform no longer accepts the saved sign-in, so tables cannot be booked. Reconnect it in Settings.',
          link: null,
        },
      ]
  }
}

function tableFoundAlert(to: Recipient, slot: Table, venueName: string, urlSlug: string | null, note: string | null): Alert {
  return {
    userId: to.userId,
    requestId: to.requestId,
    dedupeKey: `${to.requestId}:slot:${slotKey(slot)}`,
    kind: note ? 'booking_skipped' : 'table_found',
    title: `Table open: ${venueName}, ${slot.day} ${slot.time}`,
    body:
      `${venueName} has a table ${when(slot.day, slot.time)} for ${to.partySize} (${slot.seatingType}).` +
      (note ? ` Not booked automatically: ${note}.` : '') +
      ' Book it on the platform before someone else does.',
    link: bookingLink(urlSlug, slot.venueId, slot.day, to.partySize),
  }
}
