// The end-of-run checks: the sandbox's own ledger (every booking that really happened) against
// what the simulated users approved and what the service recorded. Each count must be 0.
import { env } from 'cloudflare:test'
import {
  cancellationFeeFor,
  chargedAtBooking,
  freeCancellationDeadline,
  type LedgerEntry,
  MUST_NOT_BOOK_RULES,
  type Policy,
} from '../../../sandbox/control-client'
import { instantOf } from '../../../src/lib/zoned-time'
import { PAUSED_FOR_THE_SESSION, TOLD_RECONNECT } from './lapses'
import type { SimSpec } from './plan'
import type { SimRequest } from './requests'
import { inspect } from './requests'

export interface SafetyCounts {
  unapprovedBookings: number
  bookingsOverFeeLimitsOrWithDeposits: number
  doubleBookingsPerRequest: number
  doubleBookingsPerDinner: number
  confirmedWithoutVerifiedReservation: number
  bookingsNotRecorded: number
  nonTerminalAfterExpiry: number
  /** One platform reservation recorded for two requests: one of them shows a table it did not book. */
  bookingsRecordedForSeveralRequests: number
  /**
   * A card sent with a booking of a table that holds none (a fee stated only in text may
   * be charged), except once a venue that wants the card on file refused the booking without it,
   * where the table states the cancellation fee the card then answers for (docs/decisions/booking.md, "Card-on-file venues"; the
   * fee's limit is the count above).
   */
  cardsSentToNoCardTables: number
  /** A request whose watching paused because its user's platform session ended (it must watch on). */
  requestsPausedForTheSession: number
  /**
   * A booking of a table or at a venue the evidence says the account cannot or must not book: a
   * paid add-on, cardholder-only inventory, a venue booked by a concierge, by reservation
   * transfers, on another platform, or closed until a later date (docs/platform.md, "Venues and search").
   */
  bookingsTheAccountMustNotMake: number
}

/** An unclear "gone" answer the account disproved, and watching resumed (decide-booking.ts). */
const DISPROVED = /^The platform said the table was no longer available .* watching again\.$/

/** A verification window that closed while the account could not be read, and such a booking found later (decide-booking.ts). */
const CLOSED_UNREAD = /^The booking could not be verified: the platform account could not be read\./
const RECORDED_LATE = /^Verified on the platform account after all: /
/** How many late-recorded requests the report shows the path of. */
const LATE_SHOWN = 3

/**
 * Money rules that stopped an automatic booking, as the requests traced them
 * (booking-decision.ts words, after decide-booking.ts's "Not booked: <venue>, <time>, <seating>: "
 * or the earlier "skipped: "). A lower bound: a request keeps its last TRACE_LIMIT entries.
 */
const MONEY_RULES =
  /(?:skipped|Not booked: .*?): (booking would charge|the booking details do not say what booking charges|the restaurant's notes mention money|for parties of \d+ or more|a \$[\d.]+ large-party cancellation fee|it comes with a paid add-on)/

interface ReservationRow {
  request_id: string
  platform_reservation_id: string | null
  verified: number
  venue_id: number
  date: string
  time: string
}

/** Verification windows that closed on an unreadable account, the bookings of those found later, and the first few paths. */
export interface LateRecords {
  closedUnread: number
  recorded: number
  paths: string[]
}

const HOUR_MS = 3_600_000
/** A booking this long after a stop cannot be one that was already in flight. */
const IN_FLIGHT_GRACE_MS = 5_000
const OUTDOOR = /patio|terrace|garden|backyard|sidewalk|rooftop/i

function fitsSpec(b: LedgerEntry, spec: SimSpec): boolean {
  const seatingOk = spec.seating === 'any' || (spec.seating === 'outdoor') === OUTDOOR.test(b.seating)
  return (
    spec.venue_ids.includes(b.venueId) &&
    spec.dates.includes(b.day) &&
    b.time >= spec.earliest_time &&
    b.time <= spec.latest_time &&
    b.partySize === spec.party_size &&
    seatingOk
  )
}

/**
 * Why the table's money terms break the spec, or null: stated fully by the find reply; no
 * deposit, prepaid or ticket; fee within limits.
 */
function feeBreach(policy: Policy, spec: SimSpec, b: LedgerEntry, zone: string): string | null {
  if (policy.gap) return `booked although the platform did not state its terms (${policy.gap})`
  if (policy.kind === 'deposit' || policy.kind === 'prepaid' || policy.kind === 'ticketed') return policy.kind
  // A fee only in the notes, anything charged at booking.
  if (policy.textFeePerPerson !== undefined) return `booked although the notes state a $${policy.textFeePerPerson} fee`
  const charged = chargedAtBooking(policy, b.partySize, b.paymentMethodId !== null)
  if (charged > 0) return `booking charged $${charged}`
  // The fee that applies to the party (large-party terms, resy-api.md, "Corrections (third review)") within the limit.
  const fee = cancellationFeeFor(policy, b.partySize)
  if (fee > spec.max_cancellation_fee_per_person) return `fee ${fee} > ${spec.max_cancellation_fee_per_person}`
  if (policy.kind === 'free') return null
  const freeUntil = freeCancellationDeadline(policy, b, zone) ?? instantOf(b.day, b.time, zone)
  if (fee > 0 && freeUntil - b.bookedAt < spec.fee_review_hours * HOUR_MS) return 'free cancellation ends too soon'
  return null
}

/** The spec the user had approved, and not withdrawn by an update or a stop, when `b` was booked. */
function authorizingSpec(r: SimRequest, b: LedgerEntry): SimSpec | null {
  const approval = r.approvals.filter((a) => a.at < b.bookedAt).at(-1)
  if (!approval) return null
  if (r.updates.some((u) => u.at > approval.at && u.at < b.bookedAt)) return null
  if (r.stops.some((s) => s.at + IN_FLIGHT_GRACE_MS < b.bookedAt)) return null
  return r.specs.get(approval.revision) ?? null
}

function historyOf(r: SimRequest): string {
  const events = [
    ...r.approvals.map((a) => `approved r${a.revision} at ${a.at}`),
    ...r.updates.map((u) => `updated to r${u.revision} at ${u.at}`),
    ...r.stops.map((s) => `stopped (was ${s.status}) at ${s.at}`),
  ]
  return `${r.id} ${r.specs.get(1)?.mode} now ${r.status}: ${events.join(', ') || 'no changes'}`
}

/** How many of a request's last trace lines an unrecorded booking's note shows. */
const TRACE_SHOWN = 14

/**
 * For a booking nobody recorded: the user's requests whose approved specs it fits, each with its
 * history and the end of its trace (times relative to the booking), so the path that lost it can be read.
 */
async function whoMayOwn(b: LedgerEntry, byEmail: Map<string, SimRequest[]>): Promise<string> {
  const fitting = (byEmail.get(b.email) ?? []).filter((r) =>
    r.approvals.some((a) => {
      const spec = r.specs.get(a.revision)
      return spec !== undefined && fitsSpec(b, spec)
    }),
  )
  const lines: string[] = []
  for (const r of fitting) {
    const { state, alarm } = await inspect(r.id)
    const verifying = state?.attempt ? ` attempt verifyUntil ${state.attempt.verifyUntil - b.bookedAt} ms` : ''
    const pending = `${verifying}${state?.unsettled ? ` looked for at ${state.unsettled.checkAt - b.bookedAt} ms` : ''}`
    lines.push(
      `      ${historyOf(r)}; stored ${state?.status ?? 'missing'}${pending}, alarm ${alarm === null ? 'none' : alarm - b.bookedAt}`,
    )
    for (const t of (state?.trace ?? []).slice(-TRACE_SHOWN)) lines.push(`        ${t.at - b.bookedAt} ms: ${t.message}`)
  }
  return lines.length > 0 ? `\n${lines.join('\n')}` : ' (no request of the user fits it)'
}

/** The fee a card on file answers for, where the table's terms state one for this party: the large-party fee (free tables state no other). */
function statedFeeOf(policy: Policy, partySize: number): number | null {
  return policy.largeParty && partySize >= policy.largeParty.size ? policy.largeParty.feePerPerson : null
}

export async function checkSafety(
  requests: SimRequest[],
  ledger: LedgerEntry[],
  zoneOf: (venueId: number) => string,
  ruleOf: (venueId: number) => string | null,
): Promise<{
  counts: SafetyCounts
  notes: string[]
  moneyAlerts: number
  disproved: number
  toldReconnectToBook: number
  late: LateRecords
}> {
  const notes: string[] = []
  const byEmail = new Map<string, SimRequest[]>()
  for (const r of requests) byEmail.set(r.user.email, [...(byEmail.get(r.user.email) ?? []), r])
  const ours = ledger.filter((b) => byEmail.has(b.email))
  const { results: everyRow } = await env.DB.prepare(
    'select request_id, platform_reservation_id, verified, venue_id, date, time from reservations',
  ).all<ReservationRow>()
  // Only this run's: an earlier run in the same database used the same platform ids.
  const rows = everyRow.filter((row) => requests.some((r) => r.id === row.request_id))
  const recordedBy = new Map<string, ReservationRow[]>()
  for (const row of rows.filter((x) => x.verified === 1)) {
    const id = row.platform_reservation_id ?? ''
    recordedBy.set(id, [...(recordedBy.get(id) ?? []), row])
  }
  const byId = new Map(requests.map((r) => [r.id, r]))

  const counts: SafetyCounts = {
    unapprovedBookings: 0,
    bookingsOverFeeLimitsOrWithDeposits: 0,
    doubleBookingsPerRequest: 0,
    doubleBookingsPerDinner: 0,
    confirmedWithoutVerifiedReservation: 0,
    bookingsNotRecorded: 0,
    nonTerminalAfterExpiry: 0,
    bookingsRecordedForSeveralRequests: 0,
    cardsSentToNoCardTables: 0,
    requestsPausedForTheSession: 0,
    bookingsTheAccountMustNotMake: 0,
  }
  const perRequest = new Map<string, number>()
  const perDinner = new Map<string, string[]>()
  for (const b of ours) {
    const rule = ruleOf(b.venueId)
    const mustNot = [
      b.policy.addOnPerPerson !== undefined ? `a paid add-on of $${b.policy.addOnPerPerson} per person` : null,
      b.policy.access !== undefined ? `cardholder-only (${b.policy.access})` : null,
      rule !== null && (MUST_NOT_BOOK_RULES as readonly string[]).includes(rule) ? `a venue the account must not book at (${rule})` : null,
    ].filter((why) => why !== null)
    if (mustNot.length > 0) {
      counts.bookingsTheAccountMustNotMake += 1
      notes.push(`must not book: ${b.email} ${b.venueId} ${b.day} ${b.time} ${b.seating}: ${mustNot.join(', ')}`)
    }
    const cardOnFile = ruleOf(b.venueId) === 'card_on_file' && statedFeeOf(b.policy, b.partySize) !== null
    if (b.policy.kind === 'free' && b.paymentMethodId !== null && !cardOnFile) {
      counts.cardsSentToNoCardTables += 1
      notes.push(`card sent to a no-card table: ${b.email} ${b.venueId} ${b.day} ${b.time}`)
    }
    const recorded = recordedBy.get(String(b.reservationId)) ?? []
    if (recorded.length === 0) {
      counts.bookingsNotRecorded += 1
      notes.push(`not recorded: ${b.email} ${b.venueId} ${b.day} ${b.time} (booked at ${b.bookedAt})${await whoMayOwn(b, byEmail)}`)
    }
    if (recorded.length > 1) {
      counts.bookingsRecordedForSeveralRequests += 1
      notes.push(`recorded for ${recorded.map((row) => row.request_id).join(' and ')}: ${b.venueId} ${b.day} ${b.time}`)
    }
    // Whose booking is it: a request the service recorded it for, else any request of the account it fits.
    const byRecord = recorded.flatMap((row) => [byId.get(row.request_id)].filter((r) => r !== undefined))
    const candidates = recorded.length > 0 ? byRecord : (byEmail.get(b.email) ?? [])
    const owned = candidates.flatMap((r) => {
      const spec = authorizingSpec(r, b)
      return spec && fitsSpec(b, spec) ? [{ r, spec }] : []
    })[0]
    if (!owned) {
      counts.unapprovedBookings += 1
      const seen = candidates.map(
        (r) => `${historyOf(r)}; approved specs ${JSON.stringify(r.approvals.map((a) => r.specs.get(a.revision)))}`,
      )
      const whose = recorded.map((row) => row.request_id).join(', ') || 'unrecorded'
      notes.push(
        `unapproved: ${b.venueId} ${b.day} ${b.time} ${b.seating} party ${b.partySize} at ${b.bookedAt} (${whose}): ${seen.join(' | ')}`,
      )
    } else {
      perRequest.set(owned.r.id, (perRequest.get(owned.r.id) ?? 0) + 1)
      const breach = feeBreach(b.policy, owned.spec, b, zoneOf(b.venueId))
      if (breach) {
        counts.bookingsOverFeeLimitsOrWithDeposits += 1
        notes.push(`money terms: ${owned.r.id} ${b.venueId} ${b.day} ${b.time}: ${breach}`)
      }
    }
    const dinner = (byEmail.get(b.email) ?? [])
      .map((r) => r.dinner)
      .find((d) => d.dates.includes(b.day) && b.time >= d.earliest && b.time <= d.latest)
    const told = `${b.day} ${b.time} venue ${b.venueId} at ${b.bookedAt} for ${recorded[0]?.request_id ?? 'nobody'}`
    // The same dinner, as the contract defines it: one date, overlapping windows.
    if (dinner) perDinner.set(`${dinner.id} ${b.day}`, [...(perDinner.get(`${dinner.id} ${b.day}`) ?? []), told])
  }
  for (const [id, n] of perRequest) {
    if (n > 1) {
      counts.doubleBookingsPerRequest += 1
      notes.push(`${n} bookings for request ${id}`)
    }
  }
  for (const [id, told] of perDinner) {
    if (told.length < 2) continue
    counts.doubleBookingsPerDinner += 1
    const history = requests.filter((r) => id.startsWith(`${r.dinner.id} `)).map(historyOf)
    notes.push(`${told.length} bookings for dinner ${id}: ${told.join('; ')}\n      requests: ${history.join('\n                ')}`)
  }

  const ledgerIds = new Set(ours.map((b) => String(b.reservationId)))
  const { results: indexed } = await env.DB.prepare('select id, status from requests').all<{ id: string; status: string }>()
  const indexStatus = new Map(indexed.map((row) => [row.id, row.status]))
  let moneyAlerts = 0
  let disproved = 0
  const late: LateRecords = { closedUnread: 0, recorded: 0, paths: [] }
  let toldReconnectToBook = 0
  const open = (status: string | undefined) => ['needs_approval', 'active', 'awaiting_verification'].includes(status ?? '')
  for (const r of requests) {
    const { state } = await inspect(r.id)
    moneyAlerts += new Set((state?.trace ?? []).map((t) => t.message).filter((m) => MONEY_RULES.test(m))).size
    disproved += (state?.trace ?? []).filter((t) => DISPROVED.test(t.message)).length
    const trace = state?.trace ?? []
    late.closedUnread += trace.filter((t) => CLOSED_UNREAD.test(t.message)).length
    const found = trace.findIndex((t) => RECORDED_LATE.test(t.message))
    if (found >= 0) {
      late.recorded += 1
      const start = trace[0]?.at ?? 0
      const path = trace.slice(Math.max(0, found - 8), found + 1).map((t) => `${t.at - start} ms: ${t.message}`)
      if (late.paths.length < LATE_SHOWN) late.paths.push(`${historyOf(r)}\n        ${path.join('\n        ')}`)
    }
    toldReconnectToBook += (state?.trace ?? []).filter((t) => TOLD_RECONNECT.test(t.message)).length
    if ((state?.trace ?? []).some((t) => PAUSED_FOR_THE_SESSION.test(t.message))) {
      counts.requestsPausedForTheSession += 1
      notes.push(`watching paused for the session: ${r.id}`)
    }
    const status = state?.status ?? 'missing'
    const verified = rows.find((row) => row.request_id === r.id && row.verified === 1)
    const confirmed = status === 'confirmed' || indexStatus.get(r.id) === 'confirmed'
    if (confirmed && !(verified && ledgerIds.has(verified.platform_reservation_id ?? ''))) {
      counts.confirmedWithoutVerifiedReservation += 1
      notes.push(`confirmed without a verified reservation: ${r.id}`)
    }
    // Called after every expiry has passed: nothing may still be open, in the object or the index.
    if (!state || open(status) || open(indexStatus.get(r.id))) {
      counts.nonTerminalAfterExpiry += 1
      notes.push(`not closed after expiry: ${r.id} is ${status} (index: ${indexStatus.get(r.id)})`)
    }
  }
  return { counts, notes, moneyAlerts, disproved, toldReconnectToBook, late }
}
