// Platform answers → the service's types. Pure, so each rule is testable without a network.
import type { z } from 'zod'
import type { Account, BookingDetails, PlatformReservation, Slot, VenueDetails } from './api'
import { releaseRuleOf } from './release'
import { ianaTimeZone } from './time-zone'
import type { configAnswer, detailsAnswer, findAnswer, reservationsAnswer, userAnswer, venueAnswer } from './wire'

export function accountOf(user: z.output<typeof userAnswer>): Account {
  const displayName = `${user.first_name} ${user.last_name}`.trim() || user.em_address
  const methods = user.payment_methods ?? []
  const fallback = methods.find((m) => m.is_default) ?? methods[0]
  return { displayName, paymentMethodId: user.payment_method_id ?? fallback?.id ?? null }
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
    release: releaseRuleOf(config.lead_time_in_days, notes),
  }
}

export function slotsOf(answer: z.output<typeof findAnswer>, venueId: number, day: string): Slot[] {
  const venue = answer.results.venues.find((v) => v.venue.id.resy === venueId)
  return (venue?.slots ?? [])
    .filter((s) => s.date.start.startsWith(day))
    .map((s) => ({
      venueId,
      configId: s.config.token,
      day,
      time: s.date.start.slice(11, 16),
      seatingType: s.config.type,
      partyMin: s.size?.min ?? 1,
      partyMax: s.size?.max ?? 99,
    }))
}

/**
 * The platform names the kind of charge only in `payment.config.type` free text; the known
 * words decide, and any other up-front charge is treated as a deposit (never auto-booked).
 */
export function bookingDetailsOf(answer: z.output<typeof detailsAnswer>): BookingDetails {
  const kind = answer.payment?.config?.type.toLowerCase() ?? ''
  const charge = answer.payment?.amounts?.reservation_charge ?? answer.payment?.deposit_fee ?? 0
  const ticketed = /ticket|event/.test(kind)
  const prepaid = /prepa/.test(kind)
  const deposit = /deposit/.test(kind) || (charge > 0 && !ticketed && !prepaid)
  const statedFee = answer.cancellation?.fee?.amount
  const holdsCard = answer.payment?.is_paid === true || !(kind === '' || kind === 'free')
  const fee = statedFee ?? (holdsCard ? null : 0)
  const cutOff = answer.cancellation?.fee?.date_cut_off ?? answer.cancellation?.refund?.date_cut_off
  const until = cutOff ? Date.parse(cutOff) : Number.NaN
  return {
    bookToken: answer.book_token.value,
    cancellationFeePerPerson: fee,
    freeCancellationUntil: Number.isNaN(until) ? null : until,
    deposit,
    prepaid,
    ticketed,
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
