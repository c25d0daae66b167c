// A policy's meaning in time, shared by the wire (what the platform states) and by safety checks
// that judge a booking against it.
import { instantOf } from './clock'
import type { Policy } from './model'
import { hashOf } from './prng'

const HOUR_MS = 3_600_000

/**
 * When free cancellation ends: `cutoffHours` before the table's time, or before `cutoffTime` on
 * the service day when the policy names one. Null when cancelling never refunds (prepaid,
 * ticketed) and for a free table (cancelling is always free).
 */
export function freeCancellationDeadline(policy: Policy, slot: { day: string; time: string }, zone: string): number | null {
  if (policy.kind === 'fee') return instantOf(slot.day, policy.cutoffTime ?? slot.time, zone) - policy.cutoffHours * HOUR_MS
  if (policy.kind === 'deposit') return instantOf(slot.day, slot.time, zone) - policy.cutoffHours * HOUR_MS
  return null
}

/** The late-cancellation fee per person that applies to a party: the large-party fee from its size on (docs/platform.md, "Money terms"). */
export function cancellationFeeFor(policy: Policy, partySize: number): number {
  if (policy.largeParty && partySize >= policy.largeParty.size) return policy.largeParty.feePerPerson
  if (policy.kind === 'fee') return policy.feePerPerson
  return policy.kind === 'free' ? 0 : policy.amountPerPerson
}

/** What the /3/details `payment.amounts` add at booking besides an up-front charge (docs/platform.md, "Money terms"). */
export function extraCharges(policy: Policy): { resyFee: number; serviceFee: number; tax: number } {
  return { resyFee: policy.charges?.resyFee ?? 0, serviceFee: policy.charges?.serviceFee ?? 0, tax: policy.charges?.tax ?? 0 }
}

/**
 * What booking the table takes from the diner's card at once: money taken up front, the details'
 * extra amounts, and — only when a card was sent — a fee stated only in the notes (docs/platform.md, "Booking": sending
 * the card to a table whose terms say no card lets such a fee be charged).
 */
export function chargedAtBooking(policy: Policy, partySize: number, cardSent: boolean): number {
  const upFront =
    policy.kind === 'deposit' || policy.kind === 'prepaid' || policy.kind === 'ticketed' ? policy.amountPerPerson * partySize : 0
  const { resyFee, serviceFee, tax } = extraCharges(policy)
  const textFee = cardSent ? (policy.textFeePerPerson ?? 0) * partySize : 0
  return upFront + resyFee + serviceFee + tax + textFee
}

/**
 * The venue template a policy is stated by: one per (venue, seating, policy), so a slot whose
 * terms change gets a new one. The config token names it (`rgs://resy/<venue>/<template>/…`, docs/platform.md, "Availability"),
 * which is how a book token minted for the old terms stops booking the new ones (store/bookings.ts).
 */
export const templateIdOf = (venueId: number, seating: string, policy: Policy) =>
  (hashOf(`${venueId}|${seating}|${JSON.stringify(policy)}`) % 900_000) + 100_000
