// Platform answers → the service's types. Pure, so each rule is testable without a network.
import type { z } from 'zod'
import type { Account, BookingDetails, PlatformReservation, Slot, SlotTerms, VenueDetails } from './api'
import { releaseRuleOf } from './release'
import { ianaTimeZone } from './time-zone'
import type { configAnswer, detailsAnswer, findAnswer, reservationsAnswer, userAnswer, venueAnswer } from './wire'

export function accountOf(user: z.output<typeof userAnswer>): Account {
  const displayName = `${user.first_name} ${user.last_name}`.trim() || user.em_address
  const methods = user.payment_methods ?? []
  const fallback = methods.find((m) => m.is_default) ?? methods[0]
  return { displayName, paymentMethodId: user.payment_method_id ?? fallback?.id ?? null }
}

function addressOf(location: z.output<typeof venueAnswer>['location']): string | null {
  if (!location?.address_1) return null
  return [location.address_1, location.locality, location.region].filter((part) => part !== '').join(', ')
}

/** Null when the platform's zone name is not one we can map (see time-zone.ts). */
export function venueDetailsOf(venue: z.output<typeof venueAnswer>, config: z.output<typeof configAnswer>): VenueDetails | null {
  const zoneName = venue.location?.time_zone ?? venue.locale?.time_zone
  const timeZone = zoneName ? ianaTimeZone(zoneName) : null
  if (!timeZone) return null
  const notes = (venue.content ?? []).map((c) => c.body)
  return {
    venueId: venue.id.resy,
    name: venue.name,
    city: venue.location?.locality ?? '',
    neighborhood: venue.location?.neighborhood ?? '',
    timeZone,
    urlSlug: venue.url_slug ?? null,
    address: addressOf(venue.location),
    release: releaseRuleOf(config.lead_time_in_days, notes),
  }
}

type FindVenue = z.output<typeof findAnswer>['results']['venues'][number]
type FindSlot = FindVenue['slots'][number]

/** The slot's `payment` and its template, as stated (see SlotTerms). */
export function termsOf(slot: FindSlot, templates: FindVenue['templates']): SlotTerms {
  const p = slot.payment
  const t = slot.template ? templates?.[String(slot.template.id)] : undefined
  return {
    paymentStated: p != null,
    isPaid: p?.is_paid ?? null,
    depositFee: p?.deposit_fee ?? null,
    cancellationFee: p?.cancellation_fee ?? null,
    secsCancelCutOff: p?.secs_cancel_cut_off ?? null,
    timeCancelCutOff: p?.time_cancel_cut_off ?? null,
    serviceCharge: p?.service_charge ?? null,
    template: t
      ? {
          isEvent: t.is_event ?? null,
          isPaid: t.is_paid ?? null,
          depositFee: t.deposit_fee ?? null,
          cancellationFee: t.cancellation_fee ?? null,
          needToKnow: t.content?.['en-us']?.need_to_know?.body ?? null,
        }
      : null,
  }
}

export function slotsOf(answer: z.output<typeof findAnswer>, venueId: number, day: string): Slot[] {
  const venue = answer.results.venues.find((v) => v.venue.id.resy === venueId)
  if (!venue) return []
  return venue.slots
    .filter((s) => s.date.start.startsWith(day))
    .map((s) => ({
      venueId,
      configId: s.config.token,
      day,
      time: s.date.start.slice(11, 16),
      seatingType: s.config.type,
      partyMin: s.size?.min ?? 1,
      partyMax: s.size?.max ?? 99,
      terms: termsOf(s, venue.templates),
    }))
}

/** The venue's `need_to_know` texts in a find reply (where the platform states release rules, §10). */
export function releaseNotesOf(answer: z.output<typeof findAnswer>, venueId: number): string[] {
  const venue = answer.results.venues.find((v) => v.venue.id.resy === venueId)
  const texts = Object.values(venue?.templates ?? {}).map((t) => t.content?.['en-us']?.need_to_know?.body ?? '')
  return [...new Set(texts.filter((t) => t.length > 0))]
}

/** Details are a cross-check only: what they say about the fee, its cut-off and money taken now. */
export function bookingDetailsOf(answer: z.output<typeof detailsAnswer>): BookingDetails {
  const fee = answer.cancellation?.fee
  const cutOff = fee?.date_cut_off ?? answer.cancellation?.refund?.date_cut_off
  const until = cutOff ? Date.parse(cutOff) : Number.NaN
  const amounts = answer.payment?.amounts
  const stated = [amounts?.total, amounts?.reservation_charge].filter((a): a is number => typeof a === 'number')
  return {
    bookToken: answer.book_token.value,
    cancellationFee: fee?.amount ?? null,
    freeCancellationUntil: Number.isNaN(until) ? null : until,
    chargedAtBooking: stated.length > 0 ? Math.max(...stated) : null,
  }
}

export function reservationsOf(answer: z.output<typeof reservationsAnswer>): PlatformReservation[] {
  return answer.reservations.map((r) => ({
    reservationId: String(r.reservation_id),
    venueId: r.venue.id,
    day: r.day,
    time: r.time_slot.slice(0, 5),
    partySize: r.num_seats,
    seatingType: r.config?.type ?? '',
  }))
}
