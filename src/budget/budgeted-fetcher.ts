// Every platform call a use case makes from the cloud (restaurant search, venue lookups,
// connecting an account, booking details, book, the reservation list) passes the service-wide
// budget here, one lease per HTTP call. Availability and calendar polls lease for themselves
// (they know their tier and cadence) and use the unbudgeted client.
import type { Fetcher } from '../platform/http'
import { awaitLease } from './budget'
import type { Tier } from './call-priority'
import { type BookingStep, WINDOW_MS } from './call-window'

/** A user waits on a lookup: past this, the call is answered as a platform answers a client going too fast. */
const LOOKUP_WAIT_MS = 8_000
/**
 * A booking's call waits for the window to free rather than fail and start again: a release's
 * bookings beyond its room wait for its first calls to leave (one window), and a booking started
 * then may wait for the next.
 */
const BOOKING_WAIT_MS = 2 * WINDOW_MS + 2_000
/** The calls that start a booking (its details) and end it (book): see call-window.ts. */
const BOOKING_STEPS = new Map<string, BookingStep>([
  ['/3/details', 'start'],
  ['/3/book', 'book'],
])

/**
 * A call with the user's token (details, book, reservations, account, sign-in) is part of a
 * booking or of connecting: first, never stretched. Key-only calls here are lookups.
 */
function tierOfCall(request: Request): Tier {
  const path = new URL(request.url).pathname
  if (request.headers.has('X-Resy-Auth-Token') || path.startsWith('/3/auth/')) return 'booking'
  return 'lookup'
}

/**
 * `holder`: the request whose booking these calls make, when one does (budget.ts LeaseRequest.holder);
 * `verifying`: they verify a booking already made (call-window.ts ceilingOf).
 */
export function budgetedFetcher(inner: Fetcher, env: Cloudflare.Env, booking: { holder?: string; verifying?: boolean } = {}): Fetcher {
  const { holder } = booking
  return {
    async fetch(request) {
      const tier = tierOfCall(request)
      const step = booking.verifying ? 'verify' : BOOKING_STEPS.get(new URL(request.url).pathname)
      const ask = tier === 'booking' ? { tier, cost: 1, key: crypto.randomUUID(), step, ...(holder ? { holder } : {}) } : { tier, cost: 1 }
      const leased = await awaitLease(env, ask, tier === 'booking' ? BOOKING_WAIT_MS : LOOKUP_WAIT_MS)
      if (!leased) {
        // Never sent: the client reads this 429 as rate_limited, which callers already handle.
        return new Response(JSON.stringify({ status: 429, message: 'The service is over its own call budget' }), {
          status: 429,
          headers: { 'Content-Type': 'application/json', 'Retry-After': '2' },
        })
      }
      return inner.fetch(request)
    },
  }
}
