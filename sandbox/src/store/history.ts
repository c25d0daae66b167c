// What an account's reservation list shows besides its live bookings: reservations that were
// cancelled or that already took place, some in the legacy shape (docs/platform.md, "Reservations":
// legacy and cancelled entries carry `time_slot` as an object and a cancelled status,
// `mvanhorn/printing-press-library`, the goat Resy source, seen live 2026-05; a list answered for
// `type=upcoming` also carries recent history, its `FilterUpcoming`). They are not bookings: the
// ledger (safety checks) never shows them, and they hold no table.
import { addDays, todayIn } from '../clock'
import { type HistoryInput, historySchema } from '../schemas'
import { venueById } from '../venues'

export type HistoryState = 'cancelled' | 'finished' | 'no_show'

export interface HistoryEntry {
  reservationId: number
  email: string
  venueId: number
  day: string
  time: string
  seating: string
  partySize: number
  state: HistoryState
  /** `legacy`: `time_slot` is `{date: "YYYY-MM-DD HH:MM:SS"}` and the entry has no `day`. */
  legacy: boolean
}

type Row = {
  id: number
  email: string
  venue_id: number
  day: string
  time: string
  seating: string
  party_size: number
  state: HistoryState
  legacy: number
}

/** Ids of history entries: below the bookings' (900 000 001 on), so the two never meet. */
const FIRST_HISTORY_ID = 800_000_000

export function addHistory(sql: SqlStorage, input: HistoryInput): number {
  const h = historySchema.parse(input)
  return (
    sql
      .exec<{ id: number }>(
        'INSERT INTO history (email, venue_id, day, time, seating, party_size, state, legacy) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id',
        h.email.trim().toLowerCase(),
        h.venueId,
        h.day,
        h.time,
        h.seating,
        h.partySize,
        h.state,
        h.legacy ? 1 : 0,
      )
      .one().id + FIRST_HISTORY_ID
  )
}

/**
 * Every new account has some history, as real accounts do: a cancelled dinner in three days, a
 * cancelled one in the legacy shape in five, and one that took place four days ago. A client
 * must see none of them as a table it holds.
 */
export function seedHistory(sql: SqlStorage, email: string, now: number): void {
  const pomelo = venueById(60105)
  const juniper = venueById(60101)
  if (!pomelo || !juniper) return
  const today = (zone: string) => todayIn(zone, now)
  const entries: HistoryInput[] = [
    {
      email,
      venueId: pomelo.id,
      day: addDays(today(pomelo.zone), 3),
      time: '19:00',
      seating: 'Dining Room',
      partySize: 2,
      state: 'cancelled',
    },
    {
      email,
      venueId: juniper.id,
      day: addDays(today(juniper.zone), 5),
      time: '20:00',
      seating: 'Dining Room',
      partySize: 2,
      state: 'cancelled',
      legacy: true,
    },
    { email, venueId: juniper.id, day: addDays(today(juniper.zone), -4), time: '19:30', seating: 'Bar', partySize: 2, state: 'finished' },
  ]
  for (const entry of entries) addHistory(sql, entry)
}

export function historyOf(sql: SqlStorage, email: string): HistoryEntry[] {
  return sql
    .exec<Row>('SELECT * FROM history WHERE email = ? ORDER BY day, time', email)
    .toArray()
    .map((r) => ({
      reservationId: r.id + FIRST_HISTORY_ID,
      email: r.email,
      venueId: r.venue_id,
      day: r.day,
      time: r.time,
      seating: r.seating,
      partySize: r.party_size,
      state: r.state,
      legacy: r.legacy === 1,
    }))
}
