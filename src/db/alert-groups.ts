// A digest's tables by restaurant and date, as the notifications table keeps them (its `groups`
// column) and every channel lists them.

/** One table of a digest, as every channel lists it. */
export interface AlertTable {
  time: string
  /** "Sat, Dec 5 · 7:30 PM ET", the venue's local time and zone. */
  when: string
  seating: string
  fee: string | null
  note: string | null
  /** Opens this slot (or the venue's day) on the platform. */
  link: string
  /** The service's "Book this table" page for it, where the service could book it; absent otherwise (and in older alerts). */
  book?: string
}

/** A digest's tables of one restaurant on one date. */
export interface AlertGroup {
  restaurant: string
  venueId: number
  date: string
  /** The venue's IANA zone, so every channel can name it; absent in digests stored before it was kept. */
  timeZone?: string
  tables: AlertTable[]
  /** Tables of this restaurant-date the alert counts but does not list (beyond its limit). */
  more?: number
}

/** The better table first: one that could be booked as is, then one without a fee, then the earlier. */
export const betterTable = (a: Pick<AlertTable, 'note' | 'fee' | 'time'>, b: Pick<AlertTable, 'note' | 'fee' | 'time'>) =>
  Number(a.note !== null) - Number(b.note !== null) || Number(a.fee !== null) - Number(b.fee !== null) || a.time.localeCompare(b.time)

/** A group's best `n` tables, by time, and how many more it has (listed or only counted). */
export function bestOf<T extends Pick<AlertTable, 'note' | 'fee' | 'time'>>(
  group: { tables: readonly T[]; more?: number },
  n: number,
): { best: T[]; more: number } {
  const best = [...group.tables].sort(betterTable).slice(0, n)
  best.sort((a, b) => a.time.localeCompare(b.time))
  return { best, more: group.tables.length - best.length + (group.more ?? 0) }
}
