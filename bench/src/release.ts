// Detection at a release instant. The sandbox's open venues sell every day, so the benchmark
// gives 25 of them a release rule in the service's catalog (the rule restaurant search would
// have stored) whose next release falls a few minutes ahead, and drops the tables at that very
// instant: the service must be polling in its 5-second burst. Two party sizes per venue-day
// make 50 drops (each of two tables: see detection.ts), each on its own coalesced venue-day-party.
import { dayIn } from './api'
import { type DetectionResult, type Dropped, drop, measureDetection, type Watch, watchAll } from './detection'
import { sleep } from './processes'
import type { BenchUser, WebUser } from './users'
import type { World } from './world'

const VENUES = 25
const PARTIES = [6, 7] as const
const LEAD_MS = 150_000 // time to create and approve everything before the burst starts

function localTime(instant: number, zone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(instant)
}

export async function atReleaseInstant(
  world: World,
  bookers: WebUser[],
  emails: string[],
  alerters: BenchUser[],
): Promise<DetectionResult & { releaseAt: string }> {
  const releaseAt = Math.ceil((Date.now() + LEAD_MS) / 60_000) * 60_000
  const venues = world.openVenues.slice(-VENUES)
  // Venue v's watched day is v+1 days ahead; tables for it open v+1 days ahead at the release time.
  const rules = venues.map((venue, v) => ({ venue, days: v + 1, time: localTime(releaseAt, venue.zone) }))
  world.d1.run(
    rules
      .map((r) => `UPDATE venues SET release_days_in_advance = ${r.days}, release_time = '${r.time}' WHERE venue_id = ${r.venue.id};`)
      .join(' '),
  )
  const targets = rules.flatMap((r, v) =>
    PARTIES.map((partySize, p) => {
      // One auto_book per dinner per user: each booker takes every other venue of one party size.
      const b = p * 2 + (v % 2)
      const booker = bookers[b]
      if (!booker) throw new Error('not enough bookers')
      return { venue: r.venue, day: dayIn(r.venue.zone, r.days), partySize, booker, platformEmail: emails[b] ?? '' }
    }),
  )
  const watches = await watchAll(world, targets, alerters)
  const wait = releaseAt - Date.now()
  if (wait < 35_000) throw new Error('setting up the release took too long: the burst already started')
  await sleep(wait)
  const droppedAt = new Map<Watch, Dropped>()
  await Promise.all(watches.map(async (w) => droppedAt.set(w, await drop(world, w))))
  const result = await measureDetection(world, watches, droppedAt, releaseAt + 125_000)
  return { ...result, releaseAt: new Date(releaseAt).toISOString() }
}
