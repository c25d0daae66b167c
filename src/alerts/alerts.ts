// The words of every alert the watcher sends, from the notices decide() asks for. Tables found
// go out as one digest (digest-alert.ts); the rest are one alert each, sent once (dedupe key).
import { reconnectUrl } from '../core/reconnect-link'
import { dollars } from '../lib/money'
import type { Alert } from '../notifications/notify'
import { dayWhen, instantWhen, tableWhen } from './alert-time'
import { digestAlert } from './digest-alert'
import { dinnerLine, dinnerName, dinnerShort } from './dinner-words'
import { actionUrl, type BookedTable, type Notice, type Recipient } from './notice'

const ACCOUNT_PAGE = 'https://resy.com/account/reservations-and-notify'

const HEALTH_NOTICE_EVERY_MS = 6 * 60 * 60 * 1000

/**
 * The alerts of one notice. `names` are the request's restaurants by id (the runner reads them),
 * so each notice names the dinner: its restaurants, dates, time window and party.
 */
export function alertsOf(to: Recipient, notice: Notice, baseUrl: string, names: ReadonlyMap<number, string> = new Map()): Alert[] {
  const dinner = dinnerLine(to, names)
  switch (notice.type) {
    case 'digest':
      return [digestAlert(to, notice.tables, baseUrl)]
    case 'booked':
      return [bookedAlert(to, notice.booking, dinnerName(to))]
    case 'unverified':
      return [
        {
          userId: to.userId,
          requestId: to.requestId,
          dedupeKey: `${to.requestId}:unverified`,
          kind: 'booking_unverified',
          title: `Please check your platform account: ${notice.venueName}, ${tableWhen(notice.day, notice.time, to.timeZone)}, for ${to.partySize}`,
          body: `${dinner}.\n\nA booking was submitted for ${notice.venueName} on ${tableWhen(notice.day, notice.time, to.timeZone)} for ${to.partySize}, but the platform never confirmed it either way. Check your reservations on the platform; this request will not book again.`,
          link: ACCOUNT_PAGE,
        },
      ]
    case 'approval_needed':
      return [
        {
          userId: to.userId,
          requestId: to.requestId,
          dedupeKey: `${to.requestId}:approval:${notice.revision}`,
          kind: 'approval_needed',
          title: `Approve: ${dinnerShort(to, names)}`,
          body: `${dinner}.\n\n${notice.revision > 1 ? 'Your assistant changed this request.' : 'Your assistant asked Tablewatch to book this table.'} Nothing is watched or booked until you approve it. The request expires ${instantWhen(notice.expiresAt, notice.timeZone)}.`,
          link: actionUrl(baseUrl, { id: to.requestId, revision: notice.revision }),
        },
      ]
    case 'expires_soon':
      return [
        {
          userId: to.userId,
          requestId: to.requestId,
          dedupeKey: `${to.requestId}:expires-soon:${notice.expiresAt}`,
          kind: 'expiry_warning',
          title: `Expires in a day unless you approve it: ${dinnerShort(to, names)}`,
          body: `${dinner}.\n\nIt expires ${instantWhen(notice.expiresAt, notice.timeZone)} and nothing is watched until you approve it.`,
          link: actionUrl(baseUrl, { id: to.requestId, revision: notice.revision }),
        },
      ]
    case 'ended':
      return [
        {
          userId: to.userId,
          requestId: to.requestId,
          dedupeKey: `${to.requestId}:ended`,
          kind: 'request_ended',
          title: `${notice.status === 'expired' ? 'Expired' : 'Ended'}: ${dinnerShort(to, names)}`,
          body: `${dinner}.\n\n${notice.reason} Ask your assistant for a new request if you still want a table.`,
          link: `${baseUrl}/requests/${to.requestId}`,
        },
      ]
    case 'checks_blocked':
      // At most one per user every six hours: a block touches every request at once.
      return [
        {
          userId: to.userId,
          requestId: null,
          dedupeKey: `health:checks:${Math.floor(notice.at / HEALTH_NOTICE_EVERY_MS)}`,
          kind: 'checks_blocked',
          title: 'The platform is blocking checks for now',
          body: `Could not check ${notice.venueName} on ${dayWhen(notice.day)}: ${notice.says}. Tablewatch backs off and tries again by itself; you may want to look on the platform yourself meanwhile.`,
          link: `${baseUrl}/requests`,
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
          title: `Reconnect your platform account to book ${dinnerName(to)}`,
          body: `${dinner}.\n\nThe platform no longer accepts the saved sign-in, so Tablewatch cannot book this table or any other until you reconnect. Watching goes on meanwhile: you are told of the tables it finds. Reconnect it in Settings: one short sign-in.`,
          link: reconnectUrl(baseUrl),
        },
      ]
  }
}

function bookedAlert(to: Recipient, b: BookedTable, name: string): Alert {
  const fee = b.cancellationFee
    ? `Cancelling late costs ${dollars(b.cancellationFee)} per person${b.freeCancellationUntil === null ? '' : `; free until ${instantWhen(b.freeCancellationUntil, b.timeZone)}`}.`
    : 'No cancellation fee.'
  return {
    userId: to.userId,
    requestId: to.requestId,
    dedupeKey: `${to.requestId}:booked`,
    kind: 'booked',
    title: `Booked and verified: ${b.venueName}, ${tableWhen(b.day, b.time, b.timeZone)}, for ${b.partySize}`,
    body: `${name}. Your table at ${b.venueName} on ${tableWhen(b.day, b.time, b.timeZone)} for ${b.partySize} (${b.seatingType}) is on your platform account. ${fee} Manage or cancel it there.`,
    link: ACCOUNT_PAGE,
  }
}
