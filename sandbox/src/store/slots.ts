// Current inventory = generated slots − removed + added (added wins over both).
import { generatedSlots } from '../inventory'
import { type Policy, type SandboxSlot, type SandboxVenue, type SlotKey, slotKeyOf } from '../model'
import { policySchema } from '../schemas'
import { venueById } from '../venues'

type AddedRow = { venue_id: number; day: string; time: string; seating: string; party_min: number; party_max: number; policy: string }

/** The added slots of a day that are published by `now` (a slot may open at a later release instant). */
function addedOn(sql: SqlStorage, venueId: number, day: string, now = Date.now()): SandboxSlot[] {
  return sql
    .exec<AddedRow>('SELECT * FROM added_slots WHERE venue_id = ? AND day = ? AND opened_at <= ?', venueId, day, now)
    .toArray()
    .map((r) => ({
      venueId: r.venue_id,
      day: r.day,
      time: r.time,
      seating: r.seating,
      partyMin: r.party_min,
      partyMax: r.party_max,
      policy: policySchema.parse(JSON.parse(r.policy)),
    }))
}

function removedOn(sql: SqlStorage, venueId: number, day: string): Set<string> {
  const rows = sql.exec<{ time: string; seating: string }>(
    'SELECT time, seating FROM removed_slots WHERE venue_id = ? AND day = ?',
    venueId,
    day,
  )
  return new Set(rows.toArray().map((r) => slotKeyOf({ venueId, day, ...r })))
}

/** Slots not yet taken on that day, released or not, sorted by time. */
export function slotsOn(sql: SqlStorage, venue: SandboxVenue, day: string): SandboxSlot[] {
  const removed = removedOn(sql, venue.id, day)
  const added = addedOn(sql, venue.id, day)
  const addedKeys = new Set(added.map(slotKeyOf))
  const generated = generatedSlots(venue, day).filter((s) => !addedKeys.has(slotKeyOf(s)))
  return [...generated, ...added]
    .filter((s) => !removed.has(slotKeyOf(s)))
    .sort((a, b) => a.time.localeCompare(b.time) || a.seating.localeCompare(b.seating))
}

/** The slot as it stands (untaken) or as it was generated (possibly taken since); null if never offered. */
export function slotEverOffered(sql: SqlStorage, venue: SandboxVenue, key: SlotKey): SandboxSlot | null {
  const wanted = slotKeyOf(key)
  const current = slotsOn(sql, venue, key.day).find((s) => slotKeyOf(s) === wanted)
  if (current) return current
  const added = addedOn(sql, venue.id, key.day).find((s) => slotKeyOf(s) === wanted)
  return added ?? generatedSlots(venue, key.day).find((s) => slotKeyOf(s) === wanted) ?? null
}

export function currentSlot(sql: SqlStorage, venue: SandboxVenue, key: SlotKey): SandboxSlot | null {
  const wanted = slotKeyOf(key)
  return slotsOn(sql, venue, key.day).find((s) => slotKeyOf(s) === wanted) ?? null
}

/**
 * Takes the slot off sale (booked, or removed by the control API / demo). An added slot's row
 * stays, so booking details can still be asked for it, as the platform allows for a taken table.
 */
export function takeSlot(sql: SqlStorage, key: SlotKey, now = Date.now()): void {
  sql.exec(
    'INSERT OR IGNORE INTO removed_slots (venue_id, day, time, seating, taken_at) VALUES (?, ?, ?, ?, ?)',
    key.venueId,
    key.day,
    key.time,
    key.seating,
    now,
  )
}

/**
 * When a slot put on sale now counts as opened (for the lagging calendar): a table on sale already
 * (a generated one, or one added before and not taken since) keeps its time; one that was taken,
 * or never existed, opens now.
 */
function openedAtFor(sql: SqlStorage, slot: SandboxSlot, now: number): number {
  const key = [slot.venueId, slot.day, slot.time, slot.seating] as const
  const taken = sql.exec('SELECT 1 FROM removed_slots WHERE venue_id = ? AND day = ? AND time = ? AND seating = ?', ...key).toArray()
  if (taken.length > 0) return now
  const added = sql
    .exec<{ opened_at: number }>('SELECT opened_at FROM added_slots WHERE venue_id = ? AND day = ? AND time = ? AND seating = ?', ...key)
    .toArray()[0]
  if (added) return added.opened_at
  const venue = venueById(slot.venueId)
  const wanted = slotKeyOf(slot)
  return venue && generatedSlots(venue, slot.day).some((s) => slotKeyOf(s) === wanted) ? 0 : now
}

/**
 * Adds (or replaces) a slot and puts it on sale, even if it was taken before: now, or at `opensAt`
 * when that is later (a table the platform publishes at its release instant).
 */
export function putSlot(sql: SqlStorage, slot: SandboxSlot, now = Date.now(), opensAt?: number): void {
  const openedAt = opensAt !== undefined && opensAt > now ? opensAt : openedAtFor(sql, slot, now)
  sql.exec(
    'DELETE FROM removed_slots WHERE venue_id = ? AND day = ? AND time = ? AND seating = ?',
    slot.venueId,
    slot.day,
    slot.time,
    slot.seating,
  )
  sql.exec(
    `INSERT OR REPLACE INTO added_slots (venue_id, day, time, seating, party_min, party_max, policy, opened_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    slot.venueId,
    slot.day,
    slot.time,
    slot.seating,
    slot.partyMin,
    slot.partyMax,
    JSON.stringify(slot.policy),
    openedAt,
  )
}

/** Changes the fees of an untaken slot; false when there is no such slot. */
export function setPolicy(sql: SqlStorage, venue: SandboxVenue, key: SlotKey, policy: Policy): boolean {
  const slot = currentSlot(sql, venue, key)
  if (!slot) return false
  putSlot(sql, { ...slot, policy })
  return true
}

/**
 * The slots of `day` that were on sale at the past instant `at`, as far as the stored changes
 * tell: generated or opened by then, and not taken by then. For the lagging calendar.
 */
export function slotsOnSaleAt(sql: SqlStorage, venue: SandboxVenue, day: string, at: number): SandboxSlot[] {
  const opened = new Map<string, { slot: SandboxSlot; openedAt: number }>()
  for (const s of generatedSlots(venue, day)) opened.set(slotKeyOf(s), { slot: s, openedAt: 0 })
  const openedAt = new Map(
    sql
      .exec<{ time: string; seating: string; opened_at: number }>(
        'SELECT time, seating, opened_at FROM added_slots WHERE venue_id = ? AND day = ?',
        venue.id,
        day,
      )
      .toArray()
      .map((r) => [slotKeyOf({ venueId: venue.id, day, time: r.time, seating: r.seating }), r.opened_at]),
  )
  for (const slot of addedOn(sql, venue.id, day)) opened.set(slotKeyOf(slot), { slot, openedAt: openedAt.get(slotKeyOf(slot)) ?? 0 })
  const takenAt = new Map<string, number>()
  const removedRows = sql.exec<{ time: string; seating: string; taken_at: number }>(
    'SELECT time, seating, taken_at FROM removed_slots WHERE venue_id = ? AND day = ?',
    venue.id,
    day,
  )
  for (const r of removedRows) takenAt.set(slotKeyOf({ venueId: venue.id, day, time: r.time, seating: r.seating }), r.taken_at)
  return [...opened.entries()]
    .filter(([key, o]) => o.openedAt <= at && (takenAt.get(key) ?? Number.POSITIVE_INFINITY) > at)
    .map(([, o]) => o.slot)
}
