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
}

/** A digest's tables of one restaurant on one date. */
export interface AlertGroup {
  restaurant: string
  venueId: number
  date: string
  /** The venue's IANA zone, so every channel can name it; absent in digests stored before it was kept. */
  timeZone?: string
  tables: AlertTable[]
}
