// Booking at a release instant: the platform opens a new day at the instant a venue's release
// rule says (the sandbox world's own rule for the venue, stated in its notes as in the catalog),
// and a table on it is booked → the platform's own commit time in its ledger. The sandbox's open
// venues sell every day, so 25 of them get a rule whose next release falls a few minutes ahead,
// one day per venue (v + 1 days ahead). At each instant two sets of approved auto_book requests
// want that day's tables, one table each: ten of users who book from the cloud (parties 6 and 7)
// and ten of users who book from a paired device (parties 8 and 9), so the two figures are taken
// at the same instants. Five waves of five venues, a minute apart: the local sandbox, one Durable
// Object behind `wrangler dev`, answers about 50 find calls a second on this machine, and one
// wave's bursts (20 venue-days at 0.5 s, capped at 4 calls a second per venue for the service's
// finds and per device for a device's) need 40. All 25 venues at one instant would measure the
// sandbox's queue, not the service. Each booker holds one table per wave.
import type { SandboxVenueView } from '../../sandbox/control-client'
import { dayIn, lateSpec } from './api'
import { sleep } from './processes'
import { mapLimit, percentile, round } from './stats'
import type { WebUser } from './users'
import type { World } from './world'

const WAVES = 5
const VENUES_PER_WAVE = 5
const WAVE_GAP_MS = 60_000
const LEAD_MS = 180_000 // time to create and approve everything before the first burst starts
/**
 * How long after the last instant the ledger is read. A cloud booking that waits for the
 * window's room may wait up to two windows (22 s: budget/budgeted-fetcher.ts BOOKING_WAIT_MS)
 * and its verification comes after; reading the ledger 20 s after the last wave counted two
 * such bookings as missed (the run at 3ee7f42).
 */
const SETTLE_MS = 45_000

export type BookingPlace = 'cloud' | 'device'
const PARTIES: Record<BookingPlace, readonly [number, number]> = { cloud: [6, 7], device: [8, 9] }

export interface ReleaseResult {
  bookings: BookingPlace
  releaseAt: string
  drops: number
  bookP50s: number | null
  bookP95s: number | null
  bookMaxS: number | null
  bookingsMissing: number
  /**
   * Where a booking's time goes: table appears → the poll that found it started (the
   * venue-day's poll-trace line), and that poll's start → the booking submitted.
   */
  foundByPollP50s: number | null
  pollToBookingP50s: number | null
  missed: string[]
  /**
   * Every booking, slowest first (s after its release): when the poll that found it started
   * (null: no trace line), and when the platform took the booking. Says what the tail is made of.
   */
  byTable: { venueDay: string; foundS: number | null; submittedS: number }[]
}

interface Target {
  venue: SandboxVenueView
  day: string
  partySize: number
  releaseAt: number
  place: BookingPlace
  booker: WebUser
  platformEmail: string
  id?: string
}

function localTime(instant: number, zone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(instant)
}

export async function atReleaseInstant(
  world: World,
  bookers: Record<BookingPlace, { users: WebUser[]; emails: string[] }>,
): Promise<ReleaseResult[]> {
  const first = Math.ceil((Date.now() + LEAD_MS) / 60_000) * 60_000
  const venues = world.openVenues.slice(-WAVES * VENUES_PER_WAVE)
  // Venue v's day is v+1 days ahead; the platform opens it at its wave's instant.
  const rules = venues.map((venue, v) => {
    const releaseAt = first + Math.floor(v / VENUES_PER_WAVE) * WAVE_GAP_MS
    return { venue, days: v + 1, releaseAt, time: localTime(releaseAt, venue.zone) }
  })
  await mapLimit(rules, 4, (r) => world.control.setReleaseRule(r.venue.id, { days: r.days, time: r.time, stated: true }))
  // The rule restaurant search would have stored from the venue's notes (the catalog was filled before it was set).
  world.d1.run(
    rules
      .map((r) => `UPDATE venues SET release_days_in_advance = ${r.days}, release_time = '${r.time}' WHERE venue_id = ${r.venue.id};`)
      .join(' '),
  )
  const targets: Target[] = rules.flatMap((r, v) =>
    (['cloud', 'device'] as const).flatMap((place) =>
      PARTIES[place].map((partySize, p) => {
        // One per booker per wave: a booker's tables are on five days, so five dinners.
        const b = ((v % VENUES_PER_WAVE) * 2 + p) % bookers[place].users.length
        const booker = bookers[place].users[b]
        if (!booker) throw new Error('not enough bookers')
        const day = dayIn(r.venue.zone, r.days)
        return { venue: r.venue, day, partySize, releaseAt: r.releaseAt, place, booker, platformEmail: bookers[place].emails[b] ?? '' }
      }),
    ),
  )
  try {
    await mapLimit(targets, 4, async (t) => {
      const made = await world.api.createOk(t.booker.token, lateSpec(t.venue.id, t.venue.zone, t.day, t.partySize, 'auto_book'))
      await t.booker.approve(made.id, made.revision)
      t.id = made.id
    })
    if (first - Date.now() < 35_000) throw new Error('setting up the release took too long: the first burst already started')
    // A time of its own per party size: the sandbox keeps one table per slot key (venue, day, time, seating).
    const tableOf = (t: Target) => {
      const time = `23:${String(t.partySize).padStart(2, '0')}`
      return { venueId: t.venue.id, day: t.day, time, seating: 'Dining Room', partyMin: t.partySize, partyMax: t.partySize }
    }
    const keys = new Set(targets.map(tableOf).map((k) => `${k.venueId}|${k.day}|${k.time}|${k.seating}`))
    if (keys.size !== targets.length) throw new Error('two release tables share a slot key: the second would replace the first')
    // On sale from the instant its day opens, by the platform's own clock and rule.
    await mapLimit(targets, 8, async (t) => {
      if (!(await world.control.addSlot(tableOf(t)))) throw new Error(`the sandbox refused a table at ${t.venue.id}`)
    })
    await sleep(Math.max(...targets.map((t) => t.releaseAt)) - Date.now() + SETTLE_MS)
    const ledger = await world.control.ledger()
    return await Promise.all((['cloud', 'device'] as const).map((place) => figures(world, place, first, targets, ledger)))
  } finally {
    // Back to open venues for the phases after this one (scale watches them up to 60 days ahead).
    await mapLimit(rules, 4, (r) => world.control.setReleaseRule(r.venue.id, null))
  }
}

async function figures(
  world: World,
  place: BookingPlace,
  first: number,
  all: Target[],
  ledger: Awaited<ReturnType<World['control']['ledger']>>,
): Promise<ReleaseResult> {
  const targets = all.filter((t) => t.place === place)
  const latencies: number[] = []
  const toPoll: number[] = []
  const pollToBook: number[] = []
  const missed: string[] = []
  const byTable: ReleaseResult['byTable'] = []
  const s = (ms: number | null) => (ms === null ? null : round(ms / 1000, 2))
  for (const t of targets) {
    const booking = ledger.find(
      (b) => b.email === t.platformEmail && b.venueId === t.venue.id && b.day === t.day && b.partySize === t.partySize,
    )
    if (!booking) {
      const view = t.id ? await world.api.get(t.booker.token, t.id) : null
      missed.push(`${t.venue.id} ${t.day} party ${t.partySize}: ${view?.body.status} ${view?.body.trace?.at(-1)?.message ?? ''}`)
      continue
    }
    const at = t.releaseAt
    latencies.push(booking.bookedAt - at)
    // The cloud's venue-day object, or the booker's own (`@user`) when a device makes the calls.
    const found = world.traces.polls.find(
      (p) => p.id.startsWith(`${t.venue.id}:${t.day}:${t.partySize}`) && p.pushed > 0 && p.firedAt >= at - 1_000,
    )
    if (found) {
      toPoll.push(found.firedAt - at)
      pollToBook.push(booking.bookedAt - found.firedAt)
    }
    const venueDay = `${t.venue.id} ${t.day} party ${t.partySize}`
    byTable.push({ venueDay, foundS: found ? s(found.firedAt - at) : null, submittedS: s(booking.bookedAt - at) ?? 0 })
  }
  return {
    bookings: place,
    releaseAt: new Date(first).toISOString(),
    drops: targets.length,
    bookP50s: s(percentile(latencies, 50)),
    bookP95s: s(percentile(latencies, 95)),
    bookMaxS: s(percentile(latencies, 100)),
    bookingsMissing: targets.length - latencies.length,
    foundByPollP50s: s(percentile(toPoll, 50)),
    pollToBookingP50s: s(percentile(pollToBook, 50)),
    missed,
    byTable: byTable.sort((a, b) => b.submittedS - a.submittedS),
  }
}
