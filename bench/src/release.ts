// Booking at a release instant: a table appears on the platform at the very instant a venue's
// release rule says (sandbox addSlot with opensAt) → the booking is submitted (the platform's own commit time
// in its ledger). The sandbox's open venues sell every day, so the benchmark gives 25 of them a
// release rule in the service's catalog (the rule restaurant search would have stored) whose
// next release falls a few minutes ahead. 50 approved auto_book requests, each on its own
// venue-day-party (two party sizes per venue-day), release in five waves of ten, a minute apart:
// the local sandbox, one Durable Object behind `wrangler dev`, answers about 50 find calls a
// second on this machine, and one wave's bursts (10 venue-days at 0.5 s, capped at 4 calls a
// second per venue) need 20. All 50 at one instant would need 100, and would measure the
// sandbox's queue, not the service. Each of the ten bookers holds one drop per wave.
import type { SandboxVenueView } from '../../sandbox/control-client'
import { dayIn, lateSpec } from './api'
import { sleep } from './processes'
import { mapLimit, percentile, round } from './stats'
import type { WebUser } from './users'
import type { World } from './world'

const WAVES = 5
const VENUES_PER_WAVE = 5
const PARTIES = [6, 7] as const
const WAVE_GAP_MS = 60_000
const LEAD_MS = 150_000 // time to create and approve everything before the first burst starts

export interface ReleaseResult {
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
}

interface Target {
  venue: SandboxVenueView
  day: string
  partySize: number
  releaseAt: number
  booker: WebUser
  platformEmail: string
  id?: string
}

function localTime(instant: number, zone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(instant)
}

export async function atReleaseInstant(world: World, bookers: WebUser[], emails: string[]): Promise<ReleaseResult> {
  const first = Math.ceil((Date.now() + LEAD_MS) / 60_000) * 60_000
  const venues = world.openVenues.slice(-WAVES * VENUES_PER_WAVE)
  // Venue v's watched day is v+1 days ahead; tables for it open v+1 days ahead at its wave's instant.
  const rules = venues.map((venue, v) => {
    const releaseAt = first + Math.floor(v / VENUES_PER_WAVE) * WAVE_GAP_MS
    return { venue, days: v + 1, releaseAt, time: localTime(releaseAt, venue.zone) }
  })
  world.d1.run(
    rules
      .map((r) => `UPDATE venues SET release_days_in_advance = ${r.days}, release_time = '${r.time}' WHERE venue_id = ${r.venue.id};`)
      .join(' '),
  )
  const targets: Target[] = rules.flatMap((r, v) =>
    PARTIES.map((partySize, p) => {
      // One per booker per wave: a booker's drops are on five days, so five dinners.
      const b = ((v % VENUES_PER_WAVE) * PARTIES.length + p) % bookers.length
      const booker = bookers[b]
      if (!booker) throw new Error('not enough bookers')
      return { venue: r.venue, day: dayIn(r.venue.zone, r.days), partySize, releaseAt: r.releaseAt, booker, platformEmail: emails[b] ?? '' }
    }),
  )
  await mapLimit(targets, 8, async (t) => {
    const made = await world.api.createOk(t.booker.token, lateSpec(t.venue.id, t.venue.zone, t.day, t.partySize, 'auto_book'))
    await t.booker.approve(made.id, made.revision)
    t.id = made.id
  })
  if (first - Date.now() < 35_000) throw new Error('setting up the release took too long: the first burst already started')
  const dropped = new Map<Target, number>()
  // The sandbox keeps one table per slot key (venue, day, time, seating): a second drop with the
  // same key replaces the first, whose request then never sees a table: exactly one request per
  // venue-day missed, as in the run of 10:31 on 2026-11-23. A time of its own per party size.
  const tableOf = (t: Target) => {
    const time = `23:${String(t.partySize).padStart(2, '0')}`
    return { venueId: t.venue.id, day: t.day, time, seating: 'Dining Room', partyMin: t.partySize, partyMax: t.partySize }
  }
  const keys = new Set(targets.map(tableOf).map((k) => `${k.venueId}|${k.day}|${k.time}|${k.seating}`))
  if (keys.size !== targets.length) throw new Error('two release drops share a slot key: the second would replace the first')
  // The sandbox publishes each table at its release instant by its own clock (opensAt), as the
  // platform publishes a day's tables at its release time: the table appears exactly then, not
  // when a control call sent at that instant happens to land (a race a find sent at the instant lost).
  await mapLimit(targets, 8, async (t) => {
    if (!(await world.control.addSlot({ ...tableOf(t), opensAt: t.releaseAt })))
      throw new Error(`the sandbox refused a table at ${t.venue.id}`)
    dropped.set(t, t.releaseAt)
  })
  await sleep(Math.max(...targets.map((t) => t.releaseAt)) - Date.now() + 20_000)
  const ledger = await world.control.ledger()
  const latencies: number[] = []
  const toPoll: number[] = []
  const pollToBook: number[] = []
  const missed: string[] = []
  for (const t of targets) {
    const at = dropped.get(t)
    const booking = ledger.find(
      (b) => b.email === t.platformEmail && b.venueId === t.venue.id && b.day === t.day && b.partySize === t.partySize,
    )
    if (at === undefined || !booking) {
      const view = t.id ? await world.api.get(t.booker.token, t.id) : null
      missed.push(`${t.venue.id} ${t.day} party ${t.partySize}: ${view?.body.status} ${view?.body.trace?.at(-1)?.message ?? ''}`)
      continue
    }
    latencies.push(booking.bookedAt - at)
    const found = world.traces.polls.find(
      (p) => p.id === `${t.venue.id}:${t.day}:${t.partySize}` && p.pushed > 0 && p.firedAt >= at - 1_000,
    )
    if (found) {
      toPoll.push(found.firedAt - at)
      pollToBook.push(booking.bookedAt - found.firedAt)
    }
  }
  const s = (ms: number | null) => (ms === null ? null : round(ms / 1000, 2))
  return {
    releaseAt: new Date(first).toISOString(),
    drops: targets.length,
    bookP50s: s(percentile(latencies, 50)),
    bookP95s: s(percentile(latencies, 95)),
    bookMaxS: s(percentile(latencies, 100)),
    bookingsMissing: targets.length - latencies.length,
    foundByPollP50s: s(percentile(toPoll, 50)),
    pollToBookingP50s: s(percentile(pollToBook, 50)),
    missed,
  }
}
