// The words of every alert the watcher sends. Each names venue, date, time, party and
// seating, and links to the platform.
import { weekdayOf } from '../../lib/zoned-time'
import type { Alert } from '../../notifications/notify'
import type { Slot } from '../../platform/api'
import type { RequestState } from '../state'
import { slotKey } from './match'

export const PLATFORM_WEB_URL = 'https://resy.com'

export interface VenueInfo {
  venueId: number
  name: string
  urlSlug: string | null
  timeZone: string
}

export function bookingLink(venue: VenueInfo | undefined, day: string, partySize: number): string {
  const params = `date=${day}&seats=${partySize}`
  return venue?.urlSlug
    ? `${PLATFORM_WEB_URL}/venues/${encodeURIComponent(venue.urlSlug)}?${params}`
    : `${PLATFORM_WEB_URL}/?venue_id=${venue?.venueId ?? ''}&${params}`
}

const when = (day: string, time: string) => `${weekdayOf(day)} ${day} at ${time}`

export function tableFoundAlert(state: RequestState, slot: Slot, venue: VenueInfo | undefined, note?: string): Alert {
  const name = venue?.name ?? `venue ${slot.venueId}`
  return {
    userId: state.userId,
    requestId: state.id,
    dedupeKey: `${state.id}:slot:${slotKey(slot)}`,
    kind: note ? 'booking_skipped' : 'table_found',
    title: `Table open: ${name}, ${slot.day} ${slot.time}`,
    body:
      `${name} has a table ${when(slot.day, slot.time)} for ${state.spec.party_size} (${slot.seatingType}).` +
      (note ? ` Not booked automatically: ${note}.` : '') +
      ' Book it on the platform before someone else does.',
    link: bookingLink(venue, slot.day, state.spec.party_size),
  }
}

export function bookedAlert(state: RequestState, venueName: string, day: string, time: string): Alert {
  return {
    userId: state.userId,
    requestId: state.id,
    dedupeKey: `${state.id}:booked`,
    kind: 'booked',
    title: `Booked and verified: ${venueName}, ${day} ${time}`,
    body: `Your table at ${venueName} ${when(day, time)} for ${state.spec.party_size} is on your platform account. Manage or cancel it there.`,
    link: `${PLATFORM_WEB_URL}/account/reservations-and-notify`,
  }
}

/** Once per connection: `connectedAt` tells one connection from the next. */
export function reconnectAlert(userId: string, connectedAt: number): Alert {
  return {
    userId,
    requestId: null,
    dedupeKey: `reconnect:${connectedAt}`,
    kind: 'reconnect_needed',
    title: 'Reconnect your reservation platform account',
    body: 'The platform no longer accepts the saved sign-in, so tables cannot be booked. Reconnect it in Settings.',
    link: null,
  }
}

export function unverifiedAlert(state: RequestState, venueName: string, day: string, time: string): Alert {
  return {
    userId: state.userId,
    requestId: state.id,
    dedupeKey: `${state.id}:unverified`,
    kind: 'request_ended',
    title: `Please check your platform account: ${venueName}, ${day} ${time}`,
    body: `A booking was submitted for ${venueName} ${when(day, time)} but the platform never confirmed it either way. Check your reservations on the platform; this request will not book again.`,
    link: `${PLATFORM_WEB_URL}/account/reservations-and-notify`,
  }
}
