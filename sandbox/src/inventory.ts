// The generated inventory: what a venue offers on a day before anyone books, and when a day's
// tables become visible. Pure and deterministic (seeded per venue-day).
import { addDays, instantOf, todayIn } from './clock'
import type { SandboxSlot, SandboxVenue } from './model'
import { pick, prngOf } from './prng'

/** Days from today (venue-local) that carry inventory. */
export const HORIZON_DAYS = 90

const FIRST_SEATING = 17 * 60 // 17:00
const LAST_SEATING = 22 * 60 // 22:00

// Typical party ranges per kind of seating; the generator picks one per slot.
function partyRanges(seating: string): [number, number][] {
  const s = seating.toLowerCase()
  if (/bar|counter/.test(s))
    return [
      [1, 2],
      [1, 2],
      [1, 4],
    ]
  if (/chef's room|private/.test(s))
    return [
      [4, 8],
      [6, 12],
    ]
  if (/patio|garden|rooftop|terrace|backyard|sidewalk|lounge/.test(s))
    return [
      [2, 4],
      [2, 6],
    ]
  return [
    [2, 2],
    [2, 4],
    [2, 6],
    [3, 6],
    [1, 4],
  ]
}

const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`

/** Everything the venue offers on `day`, booked or not. */
export function generatedSlots(venue: SandboxVenue, day: string): SandboxSlot[] {
  const weekday = new Date(`${day}T12:00:00Z`).getUTCDay()
  if (venue.closedWeekday === weekday) return []
  const rng = prngOf(`${venue.id}|${day}`)
  const step = venue.id % 2 === 0 ? 15 : 30
  const slots: SandboxSlot[] = []
  for (let minute = FIRST_SEATING; minute <= LAST_SEATING; minute += step) {
    for (const seating of venue.seatings) {
      if (rng() >= venue.density) continue
      const [partyMin, partyMax] = pick(rng, partyRanges(seating))
      const policy = venue.policies[seating] ?? { kind: 'free' as const }
      slots.push({ venueId: venue.id, day, time: hhmm(minute), seating, partyMin, partyMax, policy })
    }
  }
  return slots
}

/** When tables for `day` first show: release rule, else as soon as the day enters the horizon. */
export function releaseInstant(venue: SandboxVenue, day: string): number {
  if (venue.release) return instantOf(addDays(day, -venue.release.days), venue.release.time, venue.zone)
  return instantOf(addDays(day, -(HORIZON_DAYS - 1)), '00:00', venue.zone)
}

/** A slot is offered when its day is released and its time has not passed. */
export function isOffered(venue: SandboxVenue, slot: { day: string; time: string }, now: number): boolean {
  return now >= releaseInstant(venue, slot.day) && instantOf(slot.day, slot.time, venue.zone) > now
}

/** The days (venue-local) that may hold offered slots now. */
export function daysOnSale(venue: SandboxVenue, now: number): string[] {
  const today = todayIn(venue.zone, now)
  const days: string[] = []
  for (let i = 0; i < HORIZON_DAYS; i++) {
    const day = addDays(today, i)
    if (now >= releaseInstant(venue, day)) days.push(day)
  }
  return days
}

/** The lead time /2/config reports: the release rule's days, else the horizon. */
export const leadTimeInDays = (venue: SandboxVenue) => venue.release?.days ?? HORIZON_DAYS - 1
