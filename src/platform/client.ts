// The real platform client: the platform's own wire format, whatever host `fetcher` reaches
// (api.resy.com in production, the sandbox worker through a service binding locally).
import { addDays, todayIn } from '../lib/zoned-time'
import { type BookOutcome, type FindQuery, type Outcome, ok, type Platform, type PlatformReservation, type ReleaseRule } from './api'
import { BLOCK_WORDS } from './blocks'
import { calendarOf } from './calendar'
import { createTransport, type TransportOptions } from './http'
import { accountOf, bookingDetailsOf, releaseNotesOf, reservationsOf, type Skipped, slotsOf, venueDetailsOf, venueHitOf } from './mapping'
import { releaseRuleOf } from './release'
import { signInCalls, userCall } from './sign-in'
import {
  bookAnswer,
  calendarAnswer,
  configAnswer,
  detailsAnswer,
  findAnswer,
  reservationIdOnly,
  reservationsAnswer,
  searchAnswer,
  userAnswer,
  venueAnswer,
} from './wire'

export interface PlatformClientOptions extends TransportOptions {
  /** The clock that decides which listed reservations have passed and which days are ahead. Default: Date.now. */
  now?: () => number
}

const SEARCH_PAGE_SIZE = 8
/** Reservations asked for a page (the platform may answer fewer: pages are read up to `metadata.total`, else an empty page). */
const RESERVATION_PAGE = 50
/** Pages read at most (the sandbox answers 10 a page: 200 entries); more is `unavailable`, never a partial list. */
const RESERVATION_PAGES_MAX = 20
/** Days ahead asked for a venue's notes when its release rule is not known otherwise. */
const RELEASE_PROBE_DAYS = 3

export function createPlatformClient(options: PlatformClientOptions): Platform {
  const http = createTransport(options)
  const now = options.now ?? Date.now

  function find({ venueId, day, partySize }: FindQuery) {
    // lat/long are required by the platform but unused for a single venue.
    const query = { venue_id: String(venueId), day, party_size: String(partySize), lat: '0', long: '0' }
    return http.read({ method: 'GET', path: '/4/find', query }, findAnswer)
  }

  /**
   * The release rule stated in the venue's find templates (`need_to_know`; docs/platform.md, "Calendar and release"), with the lead
   * days from /2/config: the days just ahead are asked until one answers with the venue's notes.
   */
  async function releaseFromFind(venueId: number, timeZone: string, leadTimeInDays: number): Promise<ReleaseRule | null> {
    const today = todayIn(timeZone, now())
    for (let ahead = 1; ahead <= RELEASE_PROBE_DAYS; ahead++) {
      const got = await find({ venueId, day: addDays(today, ahead), partySize: 2 })
      if (got.kind !== 'ok') return null
      const notes = releaseNotesOf(got.value, venueId)
      if (notes.length > 0) return releaseRuleOf(leadTimeInDays, notes)
    }
    return null
  }

  return {
    ...signInCalls(http),

    async checkAccount(credentials) {
      return map(await http.read({ method: 'GET', path: '/2/user', ...userCall(credentials) }, userAnswer), accountOf)
    },

    async searchVenues(query) {
      const body = { query, per_page: SEARCH_PAGE_SIZE, types: ['venue'] }
      const got = await http.read({ method: 'POST', path: '/3/venuesearch/search', json: body }, searchAnswer)
      return map(got, (a) => a.search.hits.map((hit) => venueHitOf(hit, earliestToday(now()))))
    },

    async venueDetails(venueId) {
      const [venue, config] = await Promise.all([
        http.read({ method: 'GET', path: '/3/venue', query: { id: String(venueId) } }, venueAnswer),
        http.read({ method: 'GET', path: '/2/config', query: { venue_id: String(venueId) } }, configAnswer),
      ])
      if (venue.kind !== 'ok') return venue
      if (config.kind !== 'ok') return config
      const details = venueDetailsOf(venue.value, config.value, earliestToday(now()))
      if (!details) return { kind: 'unavailable', detail: 'venue time zone not recognised' }
      const lead = config.value.lead_time_in_days
      if (details.release === null && lead != null) details.release = await releaseFromFind(venueId, details.timeZone, lead)
      return { kind: 'ok', value: details }
    },

    async venueCalendar({ venueId, partySize, startDate, endDate }) {
      // Exactly the parameters public pollers send (`xunhuang/yumyum-v2:yumutil/src/resy_support.ts`
      // resy_calendar); it needs Accept-Encoding: gzip, deflate (`Cierge:resy/venue.go`).
      const query = { venue_id: String(venueId), num_seats: String(partySize), start_date: startDate, end_date: endDate }
      const headers = { 'Accept-Encoding': 'gzip, deflate' }
      return map(await http.read({ method: 'GET', path: '/4/venue/calendar', query, headers }, calendarAnswer), calendarOf)
    },

    async findSlots({ venueId, day, partySize }) {
      return map(await find({ venueId, day, partySize }), (a) => slotsOf(a, venueId, day, skippedIn('/4/find')))
    },

    async bookingDetails(credentials, { configId, day, partySize }) {
      const json = { commit: 1, config_id: configId, day, party_size: partySize }
      const spec = { method: 'POST', path: '/3/details', json, slow: true, ...userCall(credentials) } as const
      return map(await http.read(spec, detailsAnswer), bookingDetailsOf)
    },

    async book(credentials, { bookToken, paymentMethodId }): Promise<BookOutcome> {
      const form: Record<string, string> = { book_token: bookToken, source_id: 'resy.com-venue-details' }
      const cardSent = paymentMethodId !== null
      if (cardSent) form.struct_payment_method = JSON.stringify({ id: paymentMethodId })
      // Exactly one attempt: a retry after a lost answer could book twice. Timed for the ~12 s
      // public clients saw at drops (http.ts SLOW_CALL_TIMEOUT_MS).
      const got = await http.exchange({ method: 'POST', path: '/3/book', form, slow: true, ...userCall(credentials) })
      if (got.kind === 'timeout') return { kind: 'unknown', detail: 'timeout' }
      if (got.kind === 'network') return { kind: 'unknown', detail: got.detail }
      // A 415 or 400 is an answer about the call's format (`/3/book` is a form in every working
      // client; one capture says JSON: docs/platform.md, "Booking"), whatever its body looks like:
      // never "not booked", never a block, never a refusal by the words in it. The account decides.
      if (got.status === 415 || got.status === 400) return { kind: 'unknown', detail: `HTTP ${got.status}: a format answer` }
      // A block answers before the platform: it probably booked nothing, but nothing says so.
      if (got.block) return { kind: 'unknown', detail: `blocked: ${BLOCK_WORDS[got.block]}` }
      // "Gone" in words, not a definite refusal: verified on the account like any unclear answer.
      const saidGone = got.status === 410 || NO_LONGER_AVAILABLE.test(messageOf(got.body))
      switch (got.status) {
        case 402:
          // A bare 402 to a book without a card: the venue wants the card on file, even at $0
          // (docs/platform.md, "Booking", [idx 57928723907]). With the card: the card or charge was refused.
          return { kind: 'refused', reason: cardSent ? 'card_required' : 'card_on_file_required' }
        case 404:
          return { kind: 'refused', reason: 'slot_gone' }
        case 412:
          // "Precondition failed": seen at drop time, and for a table the account already holds
          // (a body with `specs`: docs/platform.md, "Booking"). Never a definite "not booked": the account decides.
          return {
            kind: 'unknown',
            detail: `HTTP 412${heldSpecs(got.body) ? ' with specs: the account may already hold this table' : ''}`,
            ...(saidGone ? { saidGone } : {}),
          }
        case 401:
        case 419:
          return { kind: 'reauth' }
        case 429:
          return { kind: 'rate_limited', retryAfterMs: got.retryAfterMs }
      }
      // A venue whose booking asks for a reCAPTCHA, or whose tables are Tock's, refuses us at book
      // ([idx 57928723907] reads "recaptcha" in a 4xx body): nothing was booked.
      const said = JSON.stringify(got.body ?? '')
      if (got.status >= 400 && got.status < 500 && RECAPTCHA.test(said)) return { kind: 'refused', reason: 'recaptcha_required' }
      if (got.status >= 400 && got.status < 500 && TOCK.test(said)) return { kind: 'refused', reason: 'tock_inventory' }
      const parsed = bookAnswer.safeParse(got.body)
      if (got.status >= 200 && got.status < 300 && parsed.success) {
        return { kind: 'booked', reservationId: String(parsed.data.reservation_id) }
      }
      const detail = parsed.success || saidGone ? `HTTP ${got.status}` : `HTTP ${got.status}, unreadable answer`
      return { kind: 'unknown', detail, ...(saidGone ? { saidGone } : {}) }
    },

    async listReservations(credentials) {
      // Every page (`limit`/`offset` page the list: docs/platform.md, "Reservations"); what is cancelled,
      // over or unreadable is left out (mapping.ts).
      const held: PlatformReservation[] = []
      const seen = new Set<string>()
      const onSkip = skippedIn('/3/user/reservations')
      for (let page = 0, offset = 0; page < RESERVATION_PAGES_MAX; page++) {
        const query = { type: 'upcoming', limit: String(RESERVATION_PAGE), offset: String(offset), book_on_behalf_of: 'false' }
        const got = await http.read({ method: 'GET', path: '/3/user/reservations', query, ...userCall(credentials) }, reservationsAnswer)
        if (got.kind !== 'ok') return got
        const { reservations, metadata } = got.value
        const ids = reservations.flatMap((r) => {
          const parsed = reservationIdOnly.safeParse(r)
          return parsed.success ? [String(parsed.data.reservation_id)] : []
        })
        // A platform that ignores `offset` answers the same page again: it has given all it will.
        if (reservations.length === 0 || (ids.length > 0 && ids.every((i) => seen.has(i)))) return ok(held)
        for (const i of ids) seen.add(i)
        held.push(...reservationsOf(got.value, onSkip, now(), offset))
        offset += reservations.length
        // Without a total, a short page may be the platform's own page size: read on until an empty page.
        const total = metadata?.total
        if (total != null && offset >= total) return ok(held)
      }
      // Never a partial list: a reservation on an unread page could be the table this dinner already has.
      return { kind: 'unavailable', detail: `/3/user/reservations: more than ${RESERVATION_PAGES_MAX} pages` }
    },
  }
}

/**
 * The earliest calendar day anywhere now (UTC−12), YYYY-MM-DD: a venue's `reopen.date` after it is
 * still to come wherever the venue is, so a closed venue is never read as open a day early.
 */
const earliestToday = (now: number) => new Date(now - 12 * 60 * 60 * 1000).toISOString().slice(0, 10)

/** One odd entry of a list is left out and logged (where and why, never its values); the rest is used. */
const skippedIn = (path: string) => (skipped: Skipped) => console.warn(`platform.skipped_entry ${JSON.stringify({ path, ...skipped })}`)

/** The platform's words for a table taken meanwhile (404 "slot no longer available": docs/platform.md, "Booking"). */
const NO_LONGER_AVAILABLE = /no longer available/i
const RECAPTCHA = /recaptcha/i
const TOCK = /\btock\b/i
const messageOf = (body: unknown) =>
  typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string' ? body.message : ''

const heldSpecs = (body: unknown) => typeof body === 'object' && body !== null && 'specs' in body

function map<A, B>(outcome: Outcome<A>, f: (a: A) => B): Outcome<B> {
  return outcome.kind === 'ok' ? { kind: 'ok', value: f(outcome.value) } : outcome
}
