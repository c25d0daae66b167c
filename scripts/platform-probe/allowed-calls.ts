// The only calls the probe can make: reads, the sign-in that reads need, and the sign-in checks
// that carry no credential (a CORS preflight; a sign-in post with nothing in it, which cannot sign
// anyone in and, for /4/auth/mobile, texts nobody). Everything else, above all choosing, booking
// or cancelling a table, throws before a byte leaves the machine.
// An allow-list, not a deny-list: a path nobody thought of is refused as well, and the probe's
// code never even names the booking paths (test/probe/refuses-booking.test.ts checks the bundle).
import type { Fetcher } from '../../src/platform/http'

export const ALLOWED_CALLS = [
  'GET /3/geoip',
  'POST /3/venuesearch/search',
  'GET /3/venue',
  'GET /2/config',
  'GET /4/venue/calendar',
  'GET /4/find',
  // Signing in mints a token and changes nothing the user would see (no table, no card).
  'POST /4/auth/password',
  'POST /3/auth/password',
  // Whether sign-in answers from here, without credentials (docs/platform.md, "Where calls may
  // come from": the measurement of [idx 60497690475] used the preflights).
  'OPTIONS /4/auth/mobile',
  'OPTIONS /4/auth/password',
  'OPTIONS /3/auth/refresh',
  'POST /4/auth/mobile',
  'GET /2/user',
  'GET /3/user/reservations',
] as const

export class RefusedCall extends Error {
  constructor(readonly call: string) {
    super(`the probe is read-only and refuses ${call}: only ${ALLOWED_CALLS.join(', ')} are allowed`)
  }
}

/** "GET /4/find" for a request (the query string is not part of it). */
export const callOf = (request: Request) => `${request.method.toUpperCase()} ${new URL(request.url).pathname.replace(/\/+$/, '')}`

export function isAllowed(call: string): boolean {
  return (ALLOWED_CALLS as readonly string[]).includes(call)
}

/** A call allowed only with an empty body: a /4/auth/mobile post with a number in it would text a code. */
export const EMPTY_ONLY = 'POST /4/auth/mobile'

/** Rejects a call that must go empty and does not. */
export async function checkEmpty(call: string, request: Request): Promise<void> {
  if (call === EMPTY_ONLY && (await request.clone().text()) !== '') throw new RefusedCall(`${call} with a body`)
}

/** Throws RefusedCall for anything not on the list; otherwise passes the request on. */
export function allowListed(next: Fetcher): Fetcher {
  return {
    fetch(request) {
      const call = callOf(request)
      if (!isAllowed(call)) throw new RefusedCall(call)
      if (call === EMPTY_ONLY) return checkEmpty(call, request).then(() => next.fetch(request))
      return next.fetch(request)
    },
  }
}

/**
 * At most one call every `intervalMs` (docs/platform.md, "Rates": public background pollers keep to about one a second
 * per client). Calls wait their turn in order; the first goes at once.
 */
export function paced(next: Fetcher, intervalMs: number, now = () => Date.now()): Fetcher {
  let nextAt = 0
  let queue: Promise<void> = Promise.resolve()
  return {
    fetch(request) {
      const turn = queue.then(async () => {
        const wait = nextAt - now()
        if (wait > 0) await new Promise((done) => setTimeout(done, wait))
        nextAt = now() + intervalMs
      })
      queue = turn
      return turn.then(() => next.fetch(request))
    },
  }
}
