// Detection latency at a release instant: a table appears on the platform (sandbox addSlot) →
// the alert is decided (alert_only request), and → the booking is submitted (approved auto_book
// request; the platform's own commit time in its ledger). Each drop puts two tables on one venue-day at the
// same moment, one for the alert_only request's party size and one for the auto_book request's,
// so the booking cannot take the table the alert is waiting for, and neither shares a coalesced
// answer with any other drop.
import type { SandboxVenueView } from '../../sandbox/control-client'
import { lateSpec } from './api'
import { sleep } from './processes'
import { mapLimit, percentile, round } from './stats'
import type { BenchUser, WebUser } from './users'
import type { World } from './world'

export interface Watch {
  venue: SandboxVenueView
  day: string
  partySize: number
  alertId: string
  bookId: string
  alerter: BenchUser
  booker: WebUser
  platformEmail: string
}

export interface DetectionResult {
  drops: number
  alertP50s: number | null
  alertP95s: number | null
  bookP50s: number | null
  bookP95s: number | null
  alertsMissing: number
  bookingsMissing: number
  /** The drops that were not alerted or not booked in time, with what the requests last traced. */
  missed: string[]
}

/** Sets up one alert_only and one approved auto_book request per (venue, day, party). */
export async function watchAll(
  world: World,
  targets: { venue: SandboxVenueView; day: string; partySize: number; booker: WebUser; platformEmail: string }[],
  alerters: BenchUser[],
): Promise<Watch[]> {
  return mapLimit(targets, 8, async (t, i) => {
    const alerter = alerters[Math.floor(i / 20)]
    if (!alerter) throw new Error('not enough users for the alert_only requests')
    const alert = await world.api.createOk(alerter.token, lateSpec(t.venue.id, t.venue.zone, t.day, alertParty(t.partySize), 'alert_only'))
    const book = await world.api.createOk(t.booker.token, lateSpec(t.venue.id, t.venue.zone, t.day, t.partySize, 'auto_book'))
    await t.booker.approve(book.id, book.revision)
    return { ...t, alertId: alert.id, bookId: book.id, alerter }
  })
}

/** The alert_only request of a drop watches another party size than its auto_book twin. */
const alertParty = (partySize: number) => partySize + 10

/** One table for exactly `partySize`, at a time of its own (one venue-day serves several drops). */
const tableFor = (w: Watch, partySize: number) => ({
  venueId: w.venue.id,
  day: w.day,
  time: `23:${String(partySize).padStart(2, '0')}`, // 23:01–23:20, inside the 22:30–23:30 window
  seating: 'Dining Room',
  partyMin: partySize,
  partyMax: partySize,
})

export interface Dropped {
  alertAt: number
  bookAt: number
}

/** Both tables of a drop, added at once; each time is taken just before its table is added. */
export async function drop(world: World, w: Watch): Promise<Dropped> {
  const add = async (partySize: number) => {
    const at = Date.now()
    if (!(await world.control.addSlot(tableFor(w, partySize)))) throw new Error(`the sandbox refused a table at ${w.venue.id}`)
    return at
  }
  const [alertAt, bookAt] = await Promise.all([add(alertParty(w.partySize)), add(w.partySize)])
  return { alertAt, bookAt }
}

/** When the request's trace says it alerted the user, if it did. */
async function alertedAt(world: World, token: string, id: string): Promise<number | null> {
  const view = await world.api.get(token, id)
  const line = view.body.trace?.find((t) => t.message.startsWith('Alerted the user'))
  return line ? Date.parse(line.at) : null
}

/** Waits until every drop was alerted and booked, or the deadline passes; then measures. */
export async function measureDetection(
  world: World,
  watches: Watch[],
  droppedAt: Map<Watch, Dropped>,
  deadline: number,
): Promise<DetectionResult> {
  const alerts = new Map<Watch, number>()
  let booked: { email: string; venueId: number; day: string; partySize: number; bookedAt: number }[] = []
  const bookingOf = (w: Watch) =>
    booked.find((b) => b.email === w.platformEmail && b.venueId === w.venue.id && b.day === w.day && b.partySize === w.partySize)
  while (Date.now() < deadline) {
    await sleep(5_000)
    await mapLimit(
      watches.filter((w) => !alerts.has(w)),
      8,
      async (w) => {
        const at = await alertedAt(world, w.alerter.token, w.alertId)
        if (at !== null) alerts.set(w, at)
      },
    )
    booked = await world.control.ledger()
    if (alerts.size >= watches.length && watches.every((w) => bookingOf(w))) break
  }
  const alertLatencies: number[] = []
  const bookLatencies: number[] = []
  const missed: string[] = []
  for (const w of watches) {
    if (!alerts.has(w) || !bookingOf(w)) missed.push(await describeMiss(world, w, alerts.has(w), bookingOf(w) !== undefined))
    const dropped = droppedAt.get(w)
    if (dropped === undefined) continue
    // The trace line is written when the request decided to alert, on hearing of the table.
    const alertedAtMs = alerts.get(w)
    if (alertedAtMs !== undefined) alertLatencies.push(alertedAtMs - dropped.alertAt)
    const booking = bookingOf(w)
    if (booking) bookLatencies.push(booking.bookedAt - dropped.bookAt)
  }
  const s = (ms: number | null) => (ms === null ? null : round(ms / 1000, 2))
  return {
    drops: droppedAt.size,
    alertP50s: s(percentile(alertLatencies, 50)),
    alertP95s: s(percentile(alertLatencies, 95)),
    bookP50s: s(percentile(bookLatencies, 50)),
    bookP95s: s(percentile(bookLatencies, 95)),
    alertsMissing: droppedAt.size - alertLatencies.length,
    bookingsMissing: droppedAt.size - bookLatencies.length,
    missed,
  }
}

async function describeMiss(world: World, w: Watch, alerted: boolean, booked: boolean): Promise<string> {
  const last = async (token: string, id: string) => {
    const view = await world.api.get(token, id)
    return `${view.body.status}: ${(view.body.trace ?? [])
      .slice(-2)
      .map((t) => t.message)
      .join(' / ')}`
  }
  const what = `${w.venue.id} ${w.day} party ${w.partySize} (alert: ${alertParty(w.partySize)})`
  const alert = alerted ? 'alerted' : `no alert (${await last(w.alerter.token, w.alertId)})`
  const book = booked ? 'booked' : `no booking (${await last(w.booker.token, w.bookId)})`
  return `${what}: ${alert}; ${book}`
}
