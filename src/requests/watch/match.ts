// Which platform slots a request wants: venue and date requested, start time inside the
// window (inclusive, request's zone), party size fits, seating fits. Pure.
import type { Slot } from '../../platform/api'
import { seatingMatches, seatingOf } from '../../platform/seating'
import type { RequestSpec } from '../schemas'

export type SlotVerdict = { matches: true } | { matches: false; reason: 'venue' | 'date' | 'window' | 'party' | 'seating' }

export function judgeSlot(spec: RequestSpec, slot: Slot): SlotVerdict {
  if (!spec.venue_ids.includes(slot.venueId)) return { matches: false, reason: 'venue' }
  if (!spec.dates.includes(slot.day)) return { matches: false, reason: 'date' }
  if (slot.time < spec.earliest_time || slot.time > spec.latest_time) return { matches: false, reason: 'window' }
  if (spec.party_size < slot.partyMin || spec.party_size > slot.partyMax) return { matches: false, reason: 'party' }
  if (!seatingMatches(spec.seating, slot.seatingType)) return { matches: false, reason: 'seating' }
  return { matches: true }
}

/** Identifies one table offer across polls: the same key is alerted and tried once. */
export function slotKey(slot: Pick<Slot, 'venueId' | 'day' | 'time' | 'seatingType'>): string {
  return `${slot.venueId}|${slot.day}|${slot.time}|${slot.seatingType}`
}

/** Slots in the window that were passed over, described for the decision trace. */
export function describeSkip(slot: Slot, reason: SlotVerdict & { matches: false }): string {
  const seating = seatingOf(slot.seatingType)
  return `slot ${slot.time} ${slot.seatingType}${seating === 'unknown' ? '' : ` (${seating})`} skipped: ${reason.reason}`
}
