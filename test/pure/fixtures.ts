// Requests, slots and platform answers for the pure tests, built fresh for each test.

import type { Status } from '../../src/core/status'
import type { BookingDetails, Slot, SlotTerms } from '../../src/platform/api'
import type { BookingAttempt } from '../../src/request-aggregate/booking-state'
import type { Effect, Offer, RequestEvent } from '../../src/request-aggregate/events'
import { availabilityName } from '../../src/request-aggregate/events'
import { initialState, type RequestState } from '../../src/request-aggregate/state'
import type { RequestSpec } from '../../src/request-use-cases/schemas'

/** Monday 23 November 2026, noon UTC. */
export const NOW = Date.parse('2026-11-23T12:00:00Z')
export const DAY = '2026-12-05'
export const VENUE = 60105
export const KEY = availabilityName({ venueId: VENUE, day: DAY, partySize: 2 })
const HOUR = 3_600_000

export function specOf(over: Partial<RequestSpec> = {}): RequestSpec {
  return {
    title: '',
    venue_ids: [VENUE],
    dates: [DAY],
    party_size: 2,
    earliest_time: '19:00',
    latest_time: '21:00',
    timezone: 'America/New_York',
    seating: 'any',
    mode: 'auto_book',
    max_cancellation_fee_per_person: 25,
    fee_review_hours: 3,
    expires_at: `${DAY}T18:00:00-05:00`,
    max_bookings: 1,
    ...over,
  }
}

/** What the find slot says booking it costs: by default nothing (no card held). */
export function termsOf(over: Partial<SlotTerms> = {}): SlotTerms {
  return {
    paymentStated: true,
    isPaid: false,
    depositFee: null,
    cancellationFee: null,
    secsCancelCutOff: null,
    timeCancelCutOff: null,
    addOnRequired: false,
    serviceCharge: null,
    template: {
      isEvent: false,
      isPaid: null,
      depositFee: null,
      cancellationFee: null,
      needToKnow: null,
      largePartySize: null,
      largePartyFee: null,
    },
    ...over,
  }
}

export function slotAt(time: string, over: Partial<Slot> = {}): Slot {
  return {
    venueId: VENUE,
    configId: `cfg-${time}`,
    day: DAY,
    // The calendar day it starts: its service day unless it is after midnight.
    startDate: over.day ?? DAY,
    time,
    seatingType: 'Dining Room',
    partyMin: 1,
    partyMax: 4,
    terms: termsOf(),
    ...over,
  }
}

export function details(over: Partial<BookingDetails> = {}): BookingDetails {
  // By default the details state every amount, all 0: nothing is charged at booking.
  const amounts = { reservationCharge: 0, resyFee: 0, serviceFee: 0, tax: 0, total: 0 }
  return { bookToken: 'book-token', cancellationFee: null, freeCancellationUntil: null, amounts, ...over }
}

export function attemptOf(over: Partial<BookingAttempt> = {}): BookingAttempt {
  return {
    slotKey: `${VENUE}|${DAY}|19:30|Dining Room`,
    venueId: VENUE,
    venueName: 'Pomelo Garden',
    day: DAY,
    time: '19:30',
    partySize: 2,
    seatingType: 'Dining Room',
    startsAt: Date.parse(`${DAY}T19:30:00-05:00`),
    revision: 1,
    cancellationFee: 0,
    freeCancellationUntil: null,
    preexisting: [],
    createdAt: NOW - 1_000,
    outcome: 'pending',
    refusal: null,
    saidGone: null,
    absentReads: null,
    needsCard: false,
    cardOnFile: { allowed: true },
    retriedWithCard: false,
    platformReservationId: null,
    checkAt: NOW + 20_000,
    verifyUntil: NOW + 10 * 60_000,
    ...over,
  }
}

/** A request as it stands in `status`: approved and watching when active, verifying a booking when awaiting. */
export function stateIn(status: Status, spec: RequestSpec = specOf()): RequestState {
  const fresh = initialState({
    id: 'sr_test',
    userId: 'usr_test',
    principalId: 'pat_test',
    spec,
    expiresAt: Date.parse(spec.expires_at),
    createdAt: NOW - HOUR,
  })
  const created = { ...fresh, trace: [{ at: NOW - HOUR, message: 'Created.' }] }
  const approved = { approvedRevision: spec.mode === 'auto_book' ? 1 : null, statusReason: null }
  switch (status) {
    case 'needs_approval':
      return created
    case 'active':
      return { ...created, ...approved, status, watching: [KEY] }
    case 'awaiting_verification':
      return { ...created, ...approved, status, watching: [KEY], attempt: attemptOf() }
    default:
      return { ...created, ...approved, status, statusReason: `The request is ${status}.` }
  }
}

const PAGE = 'https://resy.com/cities/ny/venues/pomelo-garden'
const startsAt = (time: string) => Date.parse(`${DAY}T${time}:00-05:00`)

/** One poll's news: these matching times at Pomelo Garden on DAY. */
export const seen = (...times: string[]): RequestEvent => ({
  kind: 'slots_seen',
  venueDay: { venueId: VENUE, day: DAY, partySize: 2 },
  venueName: 'Pomelo Garden',
  venuePage: PAGE,
  checkedAt: NOW,
  slots: times.map((t) => slotAt(t)),
})

/** The offer of the table at `time` (with these terms), and the times to try after it. */
export const offerOf = (time: string, rest: string[] = [], terms: SlotTerms = termsOf()): Offer => ({
  slot: slotAt(time, { terms }),
  startsAt: startsAt(time),
  venueName: 'Pomelo Garden',
  venuePage: PAGE,
  revision: 1,
  rest: rest.map((t) => ({ slot: slotAt(t), startsAt: startsAt(t) })),
})

/** The effects of one kind a decision asked for. */
export const ofKind = <K extends Effect['kind']>(effects: Effect[], kind: K) =>
  effects.filter((e): e is Extract<Effect, { kind: K }> => e.kind === kind)
