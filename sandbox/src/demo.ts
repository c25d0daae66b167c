// Demo mode: every 30–60 s a few tables appear and a few disappear, so a newcomer watching the
// sandbox sees activity. Random on purpose (not seeded); tests call it through the control API.
import { daysOnSale } from './inventory'
import type { SandboxVenue } from './model'
import { pick } from './prng'
import { putSlot, slotsOn, takeSlot } from './store/slots'
import { VENUES } from './venues'

const CHANGES_PER_TICK = 3
const SOON_DAYS = 14

export const nextDemoDelayMs = () => 30_000 + Math.floor(Math.random() * 30_000)

function soonDay(venue: SandboxVenue, now: number): string | null {
  const days = daysOnSale(venue, now).slice(0, SOON_DAYS)
  return days.length > 0 ? pick(Math.random, days) : null
}

export function demoTick(sql: SqlStorage, now: number): { added: number; removed: number } {
  let added = 0
  let removed = 0
  for (let i = 0; i < CHANGES_PER_TICK; i++) {
    const venue = pick(Math.random, VENUES)
    const day = soonDay(venue, now)
    if (!day) continue
    const hour = 17 + Math.floor(Math.random() * 5)
    const time = `${hour}:${pick(Math.random, ['00', '15', '30', '45'])}`
    const seating = pick(Math.random, venue.seatings)
    const taken = slotsOn(sql, venue, day).some((s) => s.time === time && s.seating === seating)
    if (!taken) {
      const policy = venue.policies[seating] ?? { kind: 'free' as const }
      putSlot(sql, { venueId: venue.id, day, time, seating, partyMin: 2, partyMax: pick(Math.random, [2, 4, 6]), policy })
      added++
    }
  }
  for (let i = 0; i < CHANGES_PER_TICK; i++) {
    const venue = pick(Math.random, VENUES)
    const day = soonDay(venue, now)
    const slots = day ? slotsOn(sql, venue, day) : []
    if (slots.length === 0) continue
    takeSlot(sql, pick(Math.random, slots))
    removed++
  }
  return { added, removed }
}
