// The local demo control: "Open a matching table now" on a request's page makes the
// sandbox platform open a table that fits the request — one of the venue-days it watches, a time
// in its window, its party size and seating, and free terms (no fee, no deposit, no card), which
// any auto_book accepts — and asks that venue-day's availability object to check at once, so a
// newcomer sees an alert, or an approved auto_book booked and verified, within a minute.
// Only where sandboxDemoEnabled holds (local development with the PLATFORM binding); anywhere
// else it does not exist (not_found), whoever asks.
import { sandboxDemoEnabled } from '../core/deployment'
import { AppError } from '../errors'
import { instantOf } from '../lib/zoned-time'
import { type SandboxDemo, sandboxDemo } from '../platform/sandbox-demo'
import { seatingMatches } from '../platform/seating'
import { availabilityObjectName } from '../request-aggregate/events'
import type { Spec } from '../request-aggregate/spec'
import { loadRequest } from '../request-use-cases/load'
import type { Deps } from '../runtime/deps'
import { restaurantsByIds } from '../venues/restaurants'

export interface OpenedTable {
  venueName: string
  day: string
  time: string
  seating: string
}

/** A table today starts at least this far ahead, so it is still bookable when the check runs. */
const LEAD_MS = 60 * 60_000
/** Venue-days tried at most (each costs a few sandbox calls); the soonest come first. */
const MAX_TRIES = 8

const demoControlMissing = () => new AppError('not_found', 'There is no such page.')

/** The times to try, in order: the window's start, then each quarter hour inside the window. */
function windowTimes(spec: Pick<Spec, 'earliest_time' | 'latest_time'>): string[] {
  const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))
  const clock = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`
  const times = [spec.earliest_time]
  for (let m = Math.ceil((minutes(spec.earliest_time) + 1) / 15) * 15; m <= minutes(spec.latest_time); m += 15) times.push(clock(m))
  return times
}

/** The venue-days the request is subscribed to, soonest first ("venueId:day:partySize"). */
function watchedVenueDays(watching: string[]): { venueId: number; day: string; partySize: number; key: string }[] {
  return watching
    .flatMap((key) => {
      const m = /^(\d+):(\d{4}-\d{2}-\d{2}):(\d+)$/.exec(key)
      return m ? [{ venueId: Number(m[1]), day: m[2] ?? '', partySize: Number(m[3]), key }] : []
    })
    .sort((a, b) => a.day.localeCompare(b.day) || a.venueId - b.venueId)
}

async function tryVenueDay(
  demo: SandboxDemo,
  spec: Spec,
  v: { venueId: number; day: string; partySize: number },
  now: number,
): Promise<{ time: string; seating: string } | null> {
  const seatings = (await demo.seatingsOf(v.venueId))?.filter((s) => seatingMatches(spec.seating, s)) ?? []
  if (seatings.length === 0) return null
  const offered = await demo.offered(v.venueId, v.day, v.partySize)
  const taken = new Set(offered.map((s) => `${s.time}|${s.seating}`))
  // A time and seating nothing offers yet, so the watcher sees a new table (and alerts once more).
  const times = windowTimes(spec).filter((t) => instantOf(v.day, t, spec.timezone) >= now + LEAD_MS)
  const pick = times.flatMap((time) => seatings.map((seating) => ({ time, seating }))).find((c) => !taken.has(`${c.time}|${c.seating}`))
  if (!pick) return null
  const table = { venueId: v.venueId, day: v.day, ...pick, partyMin: v.partySize, partyMax: v.partySize }
  if (!(await demo.open(table))) return null
  // A day the venue has not released yet keeps the table hidden until its release: try another.
  const now2 = await demo.offered(v.venueId, v.day, v.partySize)
  return now2.some((s) => s.time === pick.time && s.seating === pick.seating) ? pick : null
}

export async function openMatchingTable(deps: Deps, requestId: string, userId: string): Promise<OpenedTable> {
  const demo = sandboxDemoEnabled(deps.env) ? sandboxDemo(deps.env) : null
  if (!demo) throw demoControlMissing()
  const state = await loadRequest(deps, requestId, { userId })
  if (state.status === 'needs_approval')
    throw new AppError('request_closed', 'Approve this request first: nothing is watched, so nothing is booked, until you do.')
  if (state.status !== 'active') throw new AppError('request_closed', 'This request no longer watches, so a new table would not reach it.')
  const venueDays = watchedVenueDays(state.watching)
  if (venueDays.length === 0)
    throw new AppError('request_closed', 'This request is not watching any venue-day right now; its status says why.')
  for (const v of venueDays.slice(0, MAX_TRIES)) {
    const opened = await tryVenueDay(demo, state.spec, v, deps.now).catch((err: unknown) => {
      // The sandbox runs without its control API, or answered something else: say so, no stack.
      throw new AppError(
        'platform_unavailable',
        `The sandbox did not open a table: ${err instanceof Error ? err.message : String(err)}.`,
        {},
        err,
      )
    })
    if (!opened) continue
    // Check at once rather than at the next interval (the shared object; a paired device's own
    // objects keep their cadence).
    await deps.env.AVAILABILITY.get(deps.env.AVAILABILITY.idFromName(availabilityObjectName(v.key, null))).checkNow()
    const [venue] = await restaurantsByIds(deps, [v.venueId])
    return { venueName: venue?.name ?? `venue ${v.venueId}`, day: v.day, ...opened }
  }
  throw new AppError('request_closed', 'The sandbox has no room for another table in this request’s window on the days it watches.')
}
