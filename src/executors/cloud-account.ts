// The cloud executor: the service calls the platform with the user's stored session
// (platform-session.ts). Reads renew a rejected token once and try again; the book call is never
// repeated, so a rejected book only renews for the next attempt. Either way the user is asked to
// reconnect only when the platform refuses the refresh too (StepSession.rejected).
import { findConnection } from '../db/connections'
import type { Outcome, PlatformReservation } from '../platform/api'
import { servicePlatform } from '../runtime/platform-health'
import type { AccountContext, AccountExecutor, AccountReservations } from './account-executor'
import { bookAnswerOf, cloudAnswerOf, noteCloudAnswer } from './cloud-refusals'

export function cloudAccount(c: AccountContext): AccountExecutor {
  const { deps, userId, session } = c
  return {
    everPaired: c.everPaired,

    async watchPlace() {
      // The contract: without a connection the service cannot check availability. A connection
      // whose session ended or was refused still watches: the checks are key-only reads and need
      // no session; only booking waits for the user to reconnect (docs/decisions/platform-account.md).
      const connection = await findConnection(deps.db, userId)
      return connection ? { kind: 'ok', via: null } : { kind: 'blocked', state: 'missing' }
    },

    async readForOffer({ query, limiterWait, requestId }) {
      const [opened, wait] = await Promise.all([session.open(), limiterWait()])
      // No working session (it ended by itself, or was refused): flagged for reconnecting here,
      // so the first request to find out tells the user (once per connection).
      if (!opened) return { kind: 'no_connection', reconnectNotice: await session.rejected() }
      if (wait > 0) return { kind: 'busy' }
      // The details first, the account's reservations only for a table they offer: the details
      // start a booking in the service-wide budget, which lets a started booking list and book
      // before another starts (budget/lease-rule.ts). Asked together, ten bookings at a release
      // took the budget's window with their lists and details, and one booked. The calls say
      // whose booking they make, so a request's second table waits for the others' first.
      const platform = requestId ? servicePlatform(deps.env, { bookingFor: requestId }) : deps.platform
      const details = await opened.read((credentials) => platform.bookingDetails(credentials, query))
      const listed = details.kind === 'ok' ? await opened.read((credentials) => platform.listReservations(credentials)) : details
      // Remembered by the platform's answers: a call the CDN refused from here is one the user may make from their device.
      await noteCloudAnswer(deps, userId, 'details', cloudAnswerOf(details))
      if (details.kind === 'ok') await noteCloudAnswer(deps, userId, 'reservations', cloudAnswerOf(listed))
      // `reauth` after a read means the platform refused the refresh too.
      if (details.kind === 'reauth' || listed.kind === 'reauth') return { kind: 'no_connection', reconnectNotice: await session.rejected() }
      return { kind: 'read', details, listed }
    },

    async book({ bookToken, needsCard }) {
      const opened = await session.open()
      const outcome = opened
        ? await opened.once((credentials) =>
            deps.platform.book(credentials, {
              bookToken,
              // The card only where the table holds one (`Cierge:resy/book.go`; docs/platform.md, "Booking").
              paymentMethodId: needsCard ? opened.paymentMethodId : null,
            }),
          )
        : ({ kind: 'reauth' } as const)
      if (opened) await noteCloudAnswer(deps, userId, 'book', bookAnswerOf(outcome))
      // Book is never repeated: a rejected token is renewed for the next attempt.
      const refused = outcome.kind === 'reauth' && opened && (await opened.renewAfterRejection()).kind === 'refused'
      return { outcome, reconnectNotice: refused ? await session.rejected() : null }
    },

    reservations: () => accountReservations(c, null),
  }
}

/**
 * The account's reservations read with the user's stored session; without one, what a device
 * read instead (`fromDevice`, a failed read or none). Reading the account never books, so a
 * device's booking may be looked for with the cloud token too.
 */
export async function accountReservations(
  c: AccountContext,
  fromDevice: Outcome<PlatformReservation[]> | null,
): Promise<AccountReservations> {
  const opened = await c.session.open()
  // A verification: at a release instant it waits for the bookings under way and the first tables waiting.
  const platform = servicePlatform(c.deps.env, { verifying: true })
  const listed = opened ? await opened.read((credentials) => platform.listReservations(credentials)) : fromDevice
  if (opened && listed) await noteCloudAnswer(c.deps, c.userId, 'reservations', cloudAnswerOf(listed))
  if (!listed) return { kind: 'unreadable', reconnectNotice: null }
  if (listed.kind === 'reauth') return { kind: 'unreadable', reconnectNotice: await c.session.rejected() }
  if (listed.kind !== 'ok') return { kind: 'unreadable', reconnectNotice: null }
  return { kind: 'ok', value: listed.value }
}
