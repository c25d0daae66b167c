// What the simulated users ask for. Each user has a few dinners; a dinner is a zone, one to
// three dates and a window inside one block of the evening. Two dinners of one user never share
// a (date, block), so every booking belongs to at most one dinner of its account: the checks
// count double bookings per dinner with that. Requests for a dinner always start from its
// window; updates move the window inside it or change the other fields.

import type { SandboxVenueView } from '../../../sandbox/control-client'
import { addDays, instantOf, todayIn } from '../../../src/lib/zoned-time'
import type { Rng } from './random'
import type { SimUser } from './world'

export interface Dinner {
  id: string
  user: SimUser
  zone: string
  /** Venues of the zone this dinner may ask for. */
  venueIds: number[]
  dates: string[]
  earliest: string
  latest: string
}

/** The request body the simulation sends, every field explicit. */
export interface SimSpec {
  title: string
  venue_ids: number[]
  dates: string[]
  party_size: number
  earliest_time: string
  latest_time: string
  timezone: string
  seating: 'any' | 'indoor' | 'outdoor'
  mode: 'alert_only' | 'auto_book'
  max_cancellation_fee_per_person: number
  fee_review_hours: number
  expires_at: string
  max_bookings: 1
}

// Blocks of the evening, minutes after midnight. The sandbox generates tables from 17:00 to
// 22:00; later windows see only the tables the simulation drops in.
const BLOCKS = [
  { from: 17 * 60, to: 18 * 60 + 59 },
  { from: 19 * 60, to: 21 * 60 + 59 },
  { from: 22 * 60, to: 23 * 60 + 59 },
] as const

export const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`
export const minutesOf = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5))

export function planDinners(rng: Rng, users: SimUser[], venues: SandboxVenueView[], perUser: number): Dinner[] {
  const zones = [...new Set(venues.map((v) => v.zone))]
  return users.flatMap((user, u) => {
    const taken = new Set<string>()
    const dinners: Dinner[] = []
    for (let d = 0; d < perUser; d++) {
      const zone = rng.pick(zones)
      const today = todayIn(zone, Date.now())
      const block = rng.int(0, BLOCKS.length - 1)
      const dates = [...new Set(Array.from({ length: rng.int(1, 3) }, () => addDays(today, rng.int(1, 12))))]
        .filter((date) => !taken.has(`${date}|${block}`))
        .sort()
      if (dates.length === 0) continue
      for (const date of dates) taken.add(`${date}|${block}`)
      const span = BLOCKS[block] ?? BLOCKS[0]
      const start = span.from + 15 * rng.int(0, 4)
      const end = Math.min(span.to, start + 15 * rng.int(3, 8))
      const inZone = venues.filter((v) => v.zone === zone).map((v) => v.id)
      dinners.push({ id: `d${u}.${d}`, user, zone, venueIds: rng.some(inZone, 1, 4), dates, earliest: hhmm(start), latest: hhmm(end) })
    }
    return dinners
  })
}

const lastServiceTime = (spec: Pick<SimSpec, 'dates' | 'latest_time' | 'timezone'>) =>
  Math.max(...spec.dates.map((d) => instantOf(d, spec.latest_time, spec.timezone)))

/** A fresh request for the dinner: its whole window, some of its dates and venues. */
export function specFor(rng: Rng, dinner: Dinner, mode: SimSpec['mode'], expiresSoon: boolean): SimSpec {
  const base: Omit<SimSpec, 'expires_at'> = {
    title: `sim ${dinner.id}`,
    venue_ids: rng.some(dinner.venueIds, 1, 3),
    dates: rng.some(dinner.dates, 1, 3),
    party_size: rng.weighted([
      [2, 6],
      [1, 1],
      [3, 1],
      [4, 2],
      [6, 1],
    ] as const),
    earliest_time: dinner.earliest,
    latest_time: dinner.latest,
    timezone: dinner.zone,
    seating: rng.weighted([
      ['any', 6],
      ['indoor', 2],
      ['outdoor', 2],
    ] as const),
    mode,
    max_cancellation_fee_per_person: rng.weighted([
      [0, 4],
      [10, 1],
      [25, 2],
      [50, 2],
      [100, 1],
    ] as const),
    fee_review_hours: rng.weighted([
      [0, 2],
      [3, 3],
      [24, 2],
      [48, 1],
      [168, 1],
    ] as const),
    max_bookings: 1,
  }
  return { ...base, expires_at: expiryFor(rng, base, expiresSoon) }
}

function expiryFor(rng: Rng, spec: Omit<SimSpec, 'expires_at'>, soon: boolean): string {
  const last = lastServiceTime(spec)
  const at = soon ? Math.min(last, Date.now() + rng.int(4, 30) * 1000) : last
  return new Date(at).toISOString()
}

/** A changed spec for an update: something the user might change about the same dinner. */
export function variantOf(rng: Rng, dinner: Dinner, current: SimSpec): SimSpec {
  const next: SimSpec = { ...current }
  switch (rng.int(0, 5)) {
    case 0: {
      const from = minutesOf(dinner.earliest)
      const to = minutesOf(dinner.latest)
      const start = from + 15 * rng.int(0, Math.max(0, Math.floor((to - from) / 15) - 1))
      next.earliest_time = hhmm(start)
      next.latest_time = hhmm(Math.min(to, start + 15 * rng.int(1, 6)))
      break
    }
    case 1:
      next.party_size = current.party_size === 2 ? 4 : 2
      break
    case 2:
      next.max_cancellation_fee_per_person = current.max_cancellation_fee_per_person === 0 ? 50 : 0
      next.fee_review_hours = rng.pick([0, 3, 24, 72])
      break
    case 3:
      next.venue_ids = rng.some(dinner.venueIds, 1, 3)
      next.seating = rng.pick(['any', 'indoor', 'outdoor'] as const)
      break
    case 4:
      next.mode = current.mode === 'auto_book' ? 'alert_only' : 'auto_book'
      break
    default:
      next.dates = rng.some(dinner.dates, 1, 3)
  }
  // The expiry may not pass the last requested window.
  if (Date.parse(next.expires_at) > lastServiceTime(next)) next.expires_at = new Date(lastServiceTime(next)).toISOString()
  if (JSON.stringify(next) === JSON.stringify(current)) next.title = `${current.title} (changed)`
  return next
}
