// The platform's JSON shapes (docs/platform.md), built from sandbox state. Field names follow
// the public evidence; values the service never reads are filled plausibly.
import { instantOf } from './clock'
import { leadTimeInDays, releaseInstant } from './inventory'
import type { ConfigRef, Policy, SandboxSlot, SandboxVenue, SlotKey } from './model'
import { cancellationFeeFor, extraCharges, freeCancellationDeadline, templateIdOf } from './policy'
import { hashOf } from './prng'
import type { SandboxAccount } from './store/accounts'
import type { Booking } from './store/bookings'
import type { HistoryEntry, HistoryState } from './store/history'
import { venueById } from './venues'

const SERVICE_TYPE_DINNER = 2
/** rgs://resy/<venue>/<template>/<service type>/<day>/<day>/<HH:MM:SS>/<party>/<seating> */
export function configTokenOf(slot: SlotKey & { policy: Policy }, partySize: number): string {
  const template = templateIdOf(slot.venueId, slot.seating, slot.policy)
  return `rgs://resy/${slot.venueId}/${template}/${SERVICE_TYPE_DINNER}/${slot.day}/${slot.day}/${slot.time}:00/${partySize}/${slot.seating}`
}

export function configOfToken(token: string): ConfigRef | null {
  const m = /^rgs:\/\/resy\/(\d+)\/(\d+)\/\d+\/(\d{4}-\d{2}-\d{2})\/\d{4}-\d{2}-\d{2}\/(\d{2}:\d{2}):\d{2}\/\d+\/(.+)$/.exec(token)
  if (!m) return null
  return { key: { venueId: Number(m[1]), day: m[3] ?? '', time: m[4] ?? '', seating: m[5] ?? '' }, template: Number(m[2]) }
}

/**
 * A find slot's `payment`, where the platform states fees, deposits and prepayment
 * (docs/platform.md, "Money terms"): all null but `is_paid` for a table that holds no card
 * (`Cierge:resy/slot.go`); a card hold states `cancellation_fee` and `secs_cancel_cut_off`
 * (`Alkaar#102`), optionally `time_cancel_cut_off` "HH:MM:SS"; money taken up front is
 * `deposit_fee`. Prepaid meals and tickets are charged up front too, so they carry it as well.
 */
function paymentOf(policy: Policy) {
  const upFront = policy.kind === 'deposit' || policy.kind === 'prepaid' || policy.kind === 'ticketed' ? policy.amountPerPerson : null
  const fee = policy.kind === 'fee' ? policy.feePerPerson : upFront
  const cutoffHours = policy.kind === 'fee' || policy.kind === 'deposit' ? policy.cutoffHours : null
  return {
    is_paid: policy.kind !== 'free',
    cancellation_fee: fee,
    deposit_fee: upFront,
    service_charge: null,
    venue_share: null,
    payment_structure: null,
    secs_cancel_cut_off: cutoffHours === null ? null : cutoffHours * 3600,
    time_cancel_cut_off: policy.kind === 'fee' && policy.cutoffTime ? `${policy.cutoffTime}:00` : null,
    secs_change_cut_off: null,
    time_change_cut_off: null,
    service_charge_options: [],
    // A paid add-on, stated only by this flag: every fee field above stays null (docs/platform.md, "Money terms").
    is_add_on_required: policy.addOnPerPerson !== undefined,
  }
}

/**
 * Cardholder-only inventory as the captures show it ([idx 71230653704], [idx 70940072871]):
 * `exclusive.is_eligible: false`, or `is_global_dining_access: true` on the slot.
 */
function accessOf(policy: Policy) {
  return {
    exclusive: { is_eligible: policy.access !== 'exclusive', is_global_dining_access: false },
    is_global_dining_access: policy.access === 'global_dining_access',
  }
}

/** The venue's notes; a fee stated only in text is added there, as some venues do ([idx 37355943101]). */
function needToKnowOf(v: SandboxVenue, policy: Policy): string {
  const fee = policy.textFeePerPerson
  return fee === undefined ? v.notes : `${v.notes} Please note: a $${fee} per person reservation fee applies to all bookings.`
}

/**
 * The venue template a slot names: its policy, `is_event` for tickets and the venue's notes (docs/platform.md, "Money terms").
 * A policy's `gap` may leave out `is_event` or make `is_paid` contradict the slot.
 */
function templateOf(v: SandboxVenue, id: number, policy: Policy) {
  const payment = paymentOf(policy)
  const template = {
    id,
    is_paid: policy.gap === 'template_disagrees' ? !payment.is_paid : payment.is_paid,
    deposit_fee: payment.deposit_fee,
    cancellation_fee: payment.cancellation_fee,
    secs_cancel_cut_off: payment.secs_cancel_cut_off,
    is_event: policy.kind === 'ticketed',
    // [idx 37355943101] (docs/platform.md, "Money terms"): the fee from this party size on; null where the venue has none.
    large_party_size_cancel: policy.largeParty?.size ?? null,
    large_party_cancellation_fee: policy.largeParty?.feePerPerson ?? null,
    content: { 'en-us': { need_to_know: { body: needToKnowOf(v, policy) } } },
  }
  if (policy.gap !== 'is_event_missing') return template
  const { is_event: _left, ...without } = template
  return without
}

/** POST /3/auth/password: the fields the evidence shows (`dwatch/resybot` login.dto.ts, `21Bruce/resolved-bot` doc.go). */
export const loginJson = (a: SandboxAccount, token: string) => ({
  id: a.userId,
  first_name: a.firstName,
  last_name: a.lastName,
  mobile_number: a.mobileNumber,
  em_address: a.email,
  token,
  legacy_token: `lt_${token.slice(-24)}`,
  payment_method_id: a.paymentMethodId,
  payment_methods:
    a.paymentMethodId === null ? [] : [{ id: a.paymentMethodId, is_default: true, display: '4242', exp_month: 12, exp_year: 2030 }],
})

/**
 * A code sign-in's session: "`token` and `legacy_token` and nothing else" ([idx 57928723907]), no
 * account facts: a client reads them from /2/user. The legacy token is opaque here.
 */
export const codeSessionJson = (token: string) => ({ token, legacy_token: `lt_${token.slice(-24)}` })

export const userJson = (a: SandboxAccount) => ({
  id: a.userId,
  first_name: a.firstName,
  last_name: a.lastName,
  em_address: a.email,
  mobile_number: a.mobileNumber,
  // 0 for an account that never set a password ([idx 57928723907]: `has_set_password` is 0).
  has_set_password: a.hasPassword ? 1 : 0,
  payment_method_id: a.paymentMethodId,
  payment_methods:
    a.paymentMethodId === null
      ? []
      : [
          {
            id: a.paymentMethodId,
            is_default: true,
            provider_name: 'stripe',
            type: 'card',
            display: '4242',
            exp_month: 12,
            exp_year: 2030,
          },
        ],
  num_bookings: 0,
})

/**
 * `feature_recaptcha` and `is_tock_inventory` on search hits and venue data ([idx 57928723907]);
 * `gda_concierge_booking`, `requires_reservation_transfers`, `source.name` and `reopen.date`
 * ([idx 70940072871], [idx 66651854206], [idx 71117166063]); venue-level `is_global_dining_access`
 * alone does not block, and is sent on some open venues.
 */
const bookingFlags = (v: SandboxVenue) => ({
  feature_recaptcha: v.bookingRule === 'recaptcha',
  is_tock_inventory: v.bookingRule === 'tock',
  gda_concierge_booking: v.bookingRule === 'gda_concierge',
  requires_reservation_transfers: v.bookingRule === 'reservation_transfers',
  is_global_dining_access: v.id % 5 === 0,
  source: { name: v.bookingRule === 'other_platform' ? 'OpenTable' : null },
  reopen: { date: v.reopenDate },
})

export const searchJson = (venues: SandboxVenue[]) => ({
  search: {
    hits: venues.map((v) => ({
      id: { resy: v.id },
      objectID: String(v.id),
      name: v.name,
      locality: v.city,
      region: v.region,
      neighborhood: v.neighborhood,
      cuisine: [v.cuisine],
      url_slug: v.slug,
      price_range_id: 3,
      rating: { average: 4.5, count: 120 },
      ...bookingFlags(v),
    })),
    nbHits: venues.length,
    page: 0,
  },
})

export const venueJson = (v: SandboxVenue) => ({
  id: { resy: v.id, google: null },
  name: v.name,
  url_slug: v.slug,
  location: {
    address_1: `${100 + (v.id % 800)} Main St`,
    locality: v.city,
    region: v.region,
    neighborhood: v.neighborhood,
    country: 'United States',
    time_zone: v.wireZone,
    url_slug: v.city.toLowerCase().replace(/\s+/g, '-'),
  },
  // No `content`: the notes (and the release rule they state) live in the find reply's templates (docs/platform.md, "Venues and search").
  locale: { time_zone: v.zone, currency: 'USD' },
  min_party_size: 1,
  max_party_size: 12,
  ...bookingFlags(v),
})

export const configJson = (v: SandboxVenue) => ({
  lead_time_in_days: leadTimeInDays(v),
  venue: { name: v.name, min_party_size: 1, max_party_size: 12 },
  service_types: { [SERVICE_TYPE_DINNER]: {} }, // a map of empty objects (`Cierge:resy/type.go` ServiceTypes)
})

export function findJson(v: SandboxVenue, day: string, partySize: number, slots: SandboxSlot[]) {
  const templates: Record<string, unknown> = {}
  const out = slots.flatMap((s) => {
    const start = instantOf(s.day, s.time, v.zone)
    const template = templateIdOf(v.id, s.seating, s.policy)
    // A slot may name a template the reply leaves out (a gap of its policy).
    if (s.policy.gap !== 'template_missing') templates[template] = templateOf(v, template, s.policy)
    const [h = 0, m = 0] = s.time.split(':').map(Number)
    const end = `${String((h + 2) % 24).padStart(2, '0')}:${String(m).padStart(2, '0')}`
    const id = hashOf(`${v.id}|${s.day}|${s.time}|${s.seating}`)
    const entry = (configId: number, visible: boolean) => ({
      config: {
        id: configId,
        type: s.seating,
        token: configTokenOf(s, partySize),
        // False on bookable slots too ([idx 71230653704]): a client must never filter on it.
        is_visible: visible,
      },
      date: { start: `${s.day} ${s.time}:00`, end: `${s.day} ${end}:00` },
      size: { min: s.partyMin, max: s.partyMax },
      quantity: 1,
      template: { id: template },
      shift: { id: template + 7, service: { type: { id: SERVICE_TYPE_DINNER } }, day: s.day },
      market: { date: { on: Math.floor(releaseInstant(v, s.day) / 1000), off: Math.floor(start / 1000) } },
      ...(s.policy.gap === 'payment_missing' ? {} : { payment: paymentOf(s.policy) }),
      ...accessOf(s.policy),
    })
    // One table, several entries sharing its token ([idx 70940072871]).
    return v.sharedTokens ? [entry(id, true), entry(id + 1, false)] : [entry(id, id % 3 !== 0)]
  })
  return {
    query: { day, party_size: partySize },
    bookmark: null,
    results: {
      venues: [
        {
          venue: {
            id: { resy: v.id },
            name: v.name,
            url_slug: v.slug,
            price_range: 3,
            location: { time_zone: v.wireZone, neighborhood: v.neighborhood, code: v.region, name: v.city },
            allow_bypass_payment_method: 0,
          },
          templates,
          slots: out,
          notifies: [],
          pickups: { slots: [] },
        },
      ],
      meta: { offset: { 'notify-me': 0 } },
    },
    guest_token: null,
  }
}

/**
 * POST /3/details: the book token, the cancellation policy, and `payment` as `{amounts}` only
 * ([idx 53104099941]; docs/platform.md, "Money terms": `payment.is_paid`, `deposit_fee` and a `config.type` vocabulary have
 * no public source in this reply). The fee is stated per person; money taken at booking is in
 * `amounts`.
 */
export function detailsJson(v: SandboxVenue, slot: SandboxSlot, partySize: number, bookToken: string, expiresAt: number) {
  const p = slot.policy
  // The fee that applies to this party: the large-party fee from its size on (docs/platform.md, "Money terms").
  const perPerson = cancellationFeeFor(p, partySize)
  const deadline = freeCancellationDeadline(p, slot, v.zone)
  const cutoff = deadline === null ? null : new Date(deadline).toISOString()
  const charge = p.kind === 'free' || p.kind === 'fee' ? 0 : p.amountPerPerson * partySize
  const { resyFee, serviceFee, tax } = extraCharges(p)
  const amounts = {
    reservation_charge: charge,
    subtotal: charge,
    resy_fee: resyFee,
    service_fee: serviceFee,
    tax,
    total: charge + resyFee + serviceFee + tax,
  }
  return {
    book_token: { value: bookToken, date_expires: new Date(expiresAt).toISOString().replace('T', ' ').slice(0, 19) },
    cancellation: {
      display: {
        policy:
          perPerson === 0 ? ['Free cancellation.'] : [`A fee of $${perPerson} per person applies to late cancellations and no-shows.`],
      },
      fee: perPerson === 0 ? null : { amount: perPerson, tax: 0, date_cut_off: cutoff, display: { amount: `$${perPerson}` } },
      refund: cutoff ? { date_cut_off: cutoff } : null,
      credit: null,
    },
    change: { date_cut_off: cutoff },
    // Some replies leave `amounts` out (a gap of the policy; docs/platform.md, "Money terms").
    payment: p.gap === 'amounts_missing' ? {} : { amounts },
    venue: { name: v.name, venue_url_slug: v.slug, location: { url_slug: v.city.toLowerCase().replace(/\s+/g, '-') } },
    viewers: { total: 1 },
  }
}

export const bookJson = (b: Booking) => ({ resy_token: b.resyToken, reservation_id: b.reservationId, venue_opt_in: false })

/** How one entry of the reservation list says what became of it (`status{finished,no_show}`; docs/platform.md, "Reservations"). */
function statusOf(state: 'upcoming' | 'finished' | HistoryState, legacy: boolean) {
  // A cancelled entry names it: as a string in the legacy shape, as `status.reservation` otherwise
  // (`mvanhorn/printing-press-library`, the goat Resy source, reads both).
  if (state === 'cancelled') return legacy ? 'Cancelled' : { reservation: 'Cancelled', finished: 0, no_show: 0 }
  return { finished: state === 'upcoming' ? 0 : 1, no_show: state === 'no_show' ? 1 : 0 }
}

interface ListedEntry {
  reservationId: number
  resyToken: string
  venueId: number
  day: string
  time: string
  partySize: number
  seating: string
  paymentMethodId: number | null
  state: 'upcoming' | 'finished' | HistoryState
  legacy: boolean
}

function entryJson(e: ListedEntry) {
  const venue = venueById(e.venueId)
  const when = venue ? new Date(instantOf(e.day, e.time, venue.zone)).toISOString() : null
  const common = {
    reservation_id: e.reservationId,
    resy_token: e.resyToken,
    venue: { id: e.venueId },
    num_seats: e.partySize,
    config: { type: e.seating },
    service_type_id: SERVICE_TYPE_DINNER,
    status: statusOf(e.state, e.legacy),
    cancellation: { allowed: e.state === 'upcoming' },
    payment_method: e.paymentMethodId === null ? null : { id: e.paymentMethodId },
  }
  // The legacy shape: no `day`, and `time_slot` an object with the full date and time (docs/platform.md, "Reservations").
  if (e.legacy) return { ...common, time_slot: { date: `${e.day} ${e.time}:00` } }
  return { ...common, day: e.day, time_slot: `${e.time}:00`, when }
}

/**
 * GET /3/user/reservations: one page (`offset`, `limit`) of the account's list, live bookings and
 * history in day order, with `metadata.total` the size of the whole list (docs/platform.md, "Reservations").
 */
export function reservationsJson(bookings: Booking[], history: HistoryEntry[], now: number, page: { offset: number; limit: number }) {
  const entries: ListedEntry[] = [
    ...bookings.map((b) => {
      const venue = venueById(b.venueId)
      const past = venue !== undefined && instantOf(b.day, b.time, venue.zone) <= now
      return { ...b, state: past ? ('finished' as const) : ('upcoming' as const), legacy: false }
    }),
    ...history.map((h) => ({ ...h, resyToken: `rr://history-${h.reservationId}`, paymentMethodId: null })),
  ].sort((a, b) => `${a.day} ${a.time}`.localeCompare(`${b.day} ${b.time}`) || a.reservationId - b.reservationId)
  const shown = entries.slice(page.offset, page.offset + page.limit)
  const venues: Record<string, { name: string }> = {}
  for (const e of shown) {
    const venue = venueById(e.venueId)
    if (venue) venues[String(e.venueId)] = { name: venue.name }
  }
  return { reservations: shown.map(entryJson), venues, metadata: { total: entries.length, type: 'upcoming' } }
}

/**
 * GET /4/venue/calendar: `scheduled[]` of `{date, inventory: {reservation, event, walk-in}}` and
 * `last_calendar_day` (`[idx 22790378784]`: a zod schema of this answer; `[idx 40832597357]`: a
 * recorded answer with `sold-out` and `not available`; docs/platform.md, "Calendar and release", adds
 * `closed`). The sandbox has no events or walk-ins: those say `not available`.
 */
export const calendarJson = (days: { date: string; status: string }[], lastDay: string) => ({
  scheduled: days.map((d) => ({ date: d.date, inventory: { reservation: d.status, event: 'not available', 'walk-in': 'not available' } })),
  last_calendar_day: lastDay,
})
