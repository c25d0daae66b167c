// What an availability poll means for its subscribers, pure: which slots are new since the last
// poll, and who gets which (a subscriber not yet primed gets every matching slot once).
import type { Slot } from '../platform/api'
import { judgeByFilter, slotKey } from './match'
import type { Subscriber } from './subscribers'

export function newSlots(seenKeys: readonly string[], current: Slot[]): Slot[] {
  const seen = new Set(seenKeys)
  return current.filter((s) => !seen.has(slotKey(s)))
}

export const sameKeys = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((k, i) => k === b[i])

export interface Delivery {
  subscriber: Subscriber
  slots: Slot[]
}

/** Only subscribers with a matching slot to hear about are called. */
export function deliveriesFor(subscribers: Subscriber[], current: Slot[], fresh: Slot[]): Delivery[] {
  return subscribers.flatMap((subscriber) => {
    const pool = subscriber.primed ? fresh : current
    const slots = pool.filter((s) => judgeByFilter(subscriber.filter, s).matches)
    return slots.length > 0 ? [{ subscriber, slots }] : []
  })
}
