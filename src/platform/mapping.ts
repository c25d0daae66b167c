// Platform answers → the service's types. Pure, so each rule is testable without a network.
import type { z } from 'zod'
import { addDays } from '../lib/zoned-time'
import type { Account, BookingBlocker, BookingDetails, PlatformReservation, Slot, SlotTerms, VenueDetails, VenueHit } from './api'
import { describeIssue } from './http'
import { releaseRuleOf } from './release'
import { ianaTimeZone } from './time-zone'
import {
  type BlockerFlags,
  type configAnswer,
  type detailsAnswer,
  type findAnswer,
  findSlot,
  findTemplate,
  findVenue,
  reservationEntry,
  type reservationsAnswer,
  type SignedInAnswer,
  type searchAnswer,
  type userAnswer,
  type venueAnswer,
} from './wire'

export function accountOf(user: z.output<typeof userAnswer>): Account {
  const displayName = `${user.first_name} ${user.last_name}`.trim() || user.em_address
  const methods = user.payment_methods ?? []
  const fallback = methods.find((m) => m.is_default) ?? methods[0]
  return { displayName, paymentMethodId: user.payment_method_id ?? fallback?.id ?? null }
}

/**
 * The account facts a sign-in answer carries, or null when it carries none (a code sign-in's
 * answer may hold only the token, [idx 57928723907]: the caller reads /2/user instead).
 */
export function signedInAccountOf(answer: SignedInAnswer): Account | null {
  const { first_name, last_name, em_address, payment_method_id, payment_methods } = answer
  if ([first_name, last_name, em_address, payment_method_id, payment_methods].every((v) => v === undefined)) return null
  return accountOf({
    first_name: first_name ?? '',
    last_name: last_name ?? '',
    em_address: em_address ?? '',
    payment_method_id,
    payment_methods,
  })
}

/**
 * The flags that say the service cannot book the venue (docs/platform.md, "Venues and search"),
 * in a fixed order: a reCAPTCHA first (it blocks any booking), then Tock, a concierge's booking,
 * reservation transfers, another platform (`source.name` set), and a `reopen.date` after `today`
 * (YYYY-MM-DD, the service's day: closed until then). A past or unreadable reopening date means
 * nothing: open venues carry old ones.
 */
export function bookingBlockerOf(flags: BlockerFlags, today: string): BookingBlocker | null {
  if (flags.feature_recaptcha === true || flags.featureRecaptcha === true) return 'recaptcha'
  if (flags.is_tock_inventory === true) return 'tock'
  if (flags.gda_concierge_booking === true) return 'concierge'
  if (flags.requires_reservation_transfers === true) return 'transfers'
  if ((flags.source?.name ?? '').trim() !== '') return 'other_platform'
  const reopens = /^\d{4}-\d{2}-\d{2}/.exec(flags.reopen?.date ?? '')?.[0]
  return reopens !== undefined && reopens > today ? 'closed' : null
}

/** One search hit (/3/venuesearch/search); `today` (YYYY-MM-DD) tells a reopening still to come. */
export function venueHitOf(hit: z.output<typeof searchAnswer>['search']['hits'][number], today: string): VenueHit {
  return {
    venueId: hit.id.resy,
    name: hit.name,
    city: hit.locality,
    neighborhood: hit.neighborhood,
    bookingBlocker: bookingBlockerOf(hit, today),
  }
}

function addressOf(location: z.output<typeof venueAnswer>['location']): string | null {
  if (!location?.address_1) return null
  return [location.address_1, location.locality, location.region].filter((part) => part !== '').join(', ')
}

/** Null when the platform's zone name is not one we can map (see time-zone.ts). */
export function venueDetailsOf(
  venue: z.output<typeof venueAnswer>,
  config: z.output<typeof configAnswer>,
  today: string,
): VenueDetails | null {
  const zoneName = venue.location?.time_zone ?? venue.locale?.time_zone
  const timeZone = zoneName ? ianaTimeZone(zoneName) : null
  if (!timeZone) return null
  const notes = (venue.content ?? []).map((c) => c.body)
  return {
    venueId: venue.id.resy,
    name: venue.name,
    city: venue.location?.locality ?? '',
    neighborhood: venue.location?.neighborhood ?? '',
    bookingBlocker: bookingBlockerOf(venue, today),
    timeZone,
    urlSlug: venue.url_slug ?? null,
    citySlug: venue.location?.url_slug ?? null,
    address: addressOf(venue.location),
    release: releaseRuleOf(config.lead_time_in_days, notes),
  }
}

/** An entry of a list reply that did not parse: skipped, the rest used (docs/platform.md, "Availability"). No values, only where and why. */
export interface Skipped {
  entry: string
  issue: string
}
export type OnSkip = (skipped: Skipped) => void
const ignore: OnSkip = () => undefined

/** Parses each entry on its own; those that fail are reported and left out. */
function each<S extends z.ZodType>(schema: S, entries: [string, unknown][], onSkip: OnSkip): [string, z.output<S>][] {
  return entries.flatMap(([entry, value]) => {
    const parsed = schema.safeParse(value)
    if (parsed.success) return [[entry, parsed.data] as [string, z.output<S>]]
    onSkip({ entry, issue: describeIssue(parsed.error) })
    return []
  })
}
const indexed = (list: unknown[], name: string, first = 0): [string, unknown][] => list.map((v, i) => [`${name}[${first + i}]`, v])

type FindSlot = z.output<typeof findSlot>
type FindTemplate = z.output<typeof findTemplate>

/** The venue's entry, its readable templates by id, and its readable slots. */
function venueOf(answer: z.output<typeof findAnswer>, venueId: number, onSkip: OnSkip) {
  const venues = each(findVenue, indexed(answer.results.venues, 'venues'), onSkip)
  const found = venues.find(([, v]) => v.venue.id.resy === venueId)
  if (!found) return null
  const [at, venue] = found
  const templates = new Map(
    each(
      findTemplate,
      Object.entries(venue.templates ?? {}).map(([k, v]) => [`${at}.templates.${k}`, v]),
      onSkip,
    ).map(([entry, t]) => [entry.slice(`${at}.templates.`.length), t]),
  )
  return { templates, slots: each(findSlot, indexed(venue.slots, `${at}.slots`), onSkip) }
}

/** The slot's `payment` and its template, as stated (see SlotTerms). */
function termsOf(slot: FindSlot, templates: Map<string, FindTemplate>): SlotTerms {
  const p = slot.payment
  const t = slot.template ? templates.get(String(slot.template.id)) : undefined
  return {
    paymentStated: p != null,
    isPaid: p?.is_paid ?? null,
    depositFee: p?.deposit_fee ?? null,
    cancellationFee: p?.cancellation_fee ?? null,
    secsCancelCutOff: p?.secs_cancel_cut_off ?? null,
    timeCancelCutOff: p?.time_cancel_cut_off ?? null,
    serviceCharge: p?.service_charge ?? null,
    addOnRequired: addOnOf(p),
    template: t
      ? {
          isEvent: t.is_event ?? null,
          isPaid: t.is_paid ?? null,
          depositFee: t.deposit_fee ?? null,
          cancellationFee: t.cancellation_fee ?? null,
          needToKnow: t.content?.['en-us']?.need_to_know?.body ?? null,
          largePartySize: t.large_party_size_cancel ?? null,
          largePartyFee: t.large_party_cancellation_fee ?? null,
        }
      : null,
  }
}

/** A paid add-on: `is_add_on_required`, or `requires_payment` (docs/platform.md, "Money terms"); null when neither is stated. */
function addOnOf(p: FindSlot['payment']): boolean | null {
  if (p?.is_add_on_required === true || p?.requires_payment === true) return true
  return p?.is_add_on_required === false || p?.requires_payment === false ? false : null
}

/**
 * Cardholder-only inventory (`exclusive.is_eligible: false`, or `is_global_dining_access: true` on
 * the slot or its `exclusive`): an ordinary account cannot book it (docs/platform.md, "Availability").
 */
const cardholderOnly = (s: FindSlot) =>
  s.exclusive?.is_eligible === false || s.is_global_dining_access === true || s.exclusive?.is_global_dining_access === true

/** A late service runs past midnight: its tables start early on the next calendar day (docs/platform.md, "Availability"). */
const AFTER_MIDNIGHT_UNTIL = '06:00'

/**
 * The venue's slots for the service day `day`: those starting that day, and those starting after
 * midnight, before AFTER_MIDNIGHT_UNTIL, which belong to the same service. A slot of any
 * other date is skipped (reported): it is not part of the service asked for.
 */
export function slotsOf(answer: z.output<typeof findAnswer>, venueId: number, day: string, onSkip: OnSkip = ignore): Slot[] {
  const venue = venueOf(answer, venueId, onSkip)
  if (!venue) return []
  const nextDay = addDays(day, 1)
  // One table per config token: several entries (config ids) may share one (docs/platform.md,
  // "Availability"). A table any of them marks cardholder-only is left out: never alerted as
  // bookable, never prepared, never booked; one marked as needing an add-on keeps that mark.
  const byToken = new Map<string, { slot: Slot; cardholderOnly: boolean }>()
  for (const [entry, s] of venue.slots) {
    const startDate = s.date.start.slice(0, 10)
    const time = s.date.start.slice(11, 16)
    if (startDate !== day && !(startDate === nextDay && time < AFTER_MIDNIGHT_UNTIL)) {
      onSkip({ entry, issue: 'starts on another day than the service asked for' })
      continue
    }
    const terms = termsOf(s, venue.templates)
    const seen = byToken.get(s.config.token)
    if (seen) {
      seen.cardholderOnly ||= cardholderOnly(s)
      if (terms.addOnRequired === true) seen.slot.terms.addOnRequired = true
      continue
    }
    byToken.set(s.config.token, {
      cardholderOnly: cardholderOnly(s),
      slot: {
        venueId,
        configId: s.config.token,
        day,
        startDate,
        time,
        seatingType: s.config.type,
        partyMin: s.size?.min ?? 1,
        partyMax: s.size?.max ?? 99,
        terms,
      },
    })
  }
  return [...byToken.values()].filter((t) => !t.cardholderOnly).map((t) => t.slot)
}

/** The venue's `need_to_know` texts in a find reply (where the platform states release rules: docs/platform.md, "Calendar and release"). */
export function releaseNotesOf(answer: z.output<typeof findAnswer>, venueId: number): string[] {
  const venue = venueOf(answer, venueId, ignore)
  const texts = [...(venue?.templates.values() ?? [])].map((t) => t.content?.['en-us']?.need_to_know?.body ?? '')
  return [...new Set(texts.filter((t) => t.length > 0))]
}

/** Details are a cross-check of the fee and its cut-off, and say what booking charges at once (docs/platform.md, "Money terms"). */
export function bookingDetailsOf(answer: z.output<typeof detailsAnswer>): BookingDetails {
  const fee = answer.cancellation?.fee
  const cutOff = fee?.date_cut_off ?? answer.cancellation?.refund?.date_cut_off
  const until = cutOff ? Date.parse(cutOff) : Number.NaN
  const a = answer.payment?.amounts
  return {
    bookToken: answer.book_token.value,
    cancellationFee: fee?.amount ?? null,
    freeCancellationUntil: Number.isNaN(until) ? null : until,
    amounts: a
      ? {
          reservationCharge: a.reservation_charge ?? null,
          resyFee: a.resy_fee ?? null,
          serviceFee: a.service_fee ?? null,
          tax: a.tax ?? null,
          total: a.total ?? null,
        }
      : null,
  }
}

type ListedReservation = z.output<typeof reservationEntry>

/** How long after a reservation's wall-clock time, read as UTC, it has surely passed in any zone (UTC−12 … +14). */
const SURELY_PAST_MS = 14 * 60 * 60 * 1000

/** What the list says became of the reservation: still held, over (cancelled, finished, past), or unknown. */
function standingOf(r: ListedReservation, day: string, time: string, now: number): 'held' | 'over' | 'unknown' {
  const s = r.status
  const named = typeof s === 'string' ? s : (s?.reservation ?? '')
  if (/cancel|complet|finish|no.?show|seated|closed/i.test(named)) return 'over'
  if (typeof s === 'object' && s !== null && ((s.finished ?? 0) > 0 || (s.no_show ?? 0) > 0)) return 'over'
  if (named !== '' && !/^(?:booked|confirmed|upcoming|reserved|active)$/i.test(named)) return 'unknown'
  const at = r.when ? Date.parse(r.when) : Number.NaN
  if (!Number.isNaN(at)) return at <= now ? 'over' : 'held'
  return Date.parse(`${day}T${time}:00Z`) + SURELY_PAST_MS <= now ? 'over' : 'held'
}

/**
 * The reservations the account holds, from one page of its list (docs/platform.md, "Reservations"): cancelled,
 * finished and past entries are left out (they hold no table), and so is an entry that does not
 * parse or whose status is unknown, reported through `onSkip` (where and why, never its values).
 * `first` is the page's offset, so reported entries are named by their place in the whole list.
 */
export function reservationsOf(answer: z.output<typeof reservationsAnswer>, onSkip: OnSkip, now: number, first = 0): PlatformReservation[] {
  return each(reservationEntry, indexed(answer.reservations, 'reservations', first), onSkip).flatMap(([entry, r]) => {
    const slot = typeof r.time_slot === 'string' ? { day: r.day ?? '', time: r.time_slot } : dayAndTime(r.time_slot.date)
    if (slot.day === '') {
      onSkip({ entry, issue: 'day missing' })
      return []
    }
    const time = slot.time.slice(0, 5)
    const standing = standingOf(r, slot.day, time, now)
    if (standing === 'unknown') onSkip({ entry, issue: 'status not recognised' })
    if (standing !== 'held') return []
    return [
      {
        reservationId: String(r.reservation_id),
        venueId: r.venue.id,
        day: slot.day,
        time,
        partySize: r.num_seats,
        seatingType: r.config?.type ?? '',
      },
    ]
  })
}

/** "YYYY-MM-DD HH:MM:SS" → its day and time. */
const dayAndTime = (at: string) => ({ day: at.slice(0, 10), time: at.slice(11, 16) })
