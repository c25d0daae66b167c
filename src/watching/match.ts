// Which platform slots a request wants: venue and date requested, start time inside the
// window (inclusive, request's zone), party size fits, seating fits. Pure. The availability
// objects use the same filter to decide which subscribers to call.
import type { Slot } from '../platform/api'
import { seatingMatches } from '../platform/seating'
import type { RequestSpec } from '../requests/schemas'

/** The part of a spec an availability object needs to match slots for one subscriber. */
export type SlotFilter = Pick<RequestSpec, 'earliest_time' | 'latest_time' | 'party_size' | 'seating'>

export type SlotVerdict = { matches: true } | { matches: false; reason: 'venue' | 'date' | 'window' | 'party' | 'seating' }

export function judgeSlot(spec: RequestSpec, slot: Slot): SlotVerdict {
  if (!spec.venue_ids.includes(slot.venueId)) return { matches: false, reason: 'venue' }
  if (!spec.dates.includes(slot.day)) return { matches: false, reason: 'date' }
  return judgeByFilter(spec, slot)
}

export function judgeByFilter(filter: SlotFilter, slot: Slot): SlotVerdict {
  // A window is one calendar day's clock; a late service's table after midnight is the next day's.
  if (slot.startDate !== slot.day) return { matches: false, reason: 'window' }
  if (slot.time < filter.earliest_time || slot.time > filter.latest_time) return { matches: false, reason: 'window' }
  if (filter.party_size < slot.partyMin || filter.party_size > slot.partyMax) return { matches: false, reason: 'party' }
  if (!seatingMatches(filter.seating, slot.seatingType)) return { matches: false, reason: 'seating' }
  return { matches: true }
}

export const filterOf = (spec: RequestSpec): SlotFilter => ({
  earliest_time: spec.earliest_time,
  latest_time: spec.latest_time,
  party_size: spec.party_size,
  seating: spec.seating,
})

/** Identifies one table offer across polls: the same key is alerted and tried once. */
export function slotKey(slot: Pick<Slot, 'venueId' | 'day' | 'time' | 'seatingType'>): string {
  return `${slot.venueId}|${slot.day}|${slot.time}|${slot.seatingType}`
}
