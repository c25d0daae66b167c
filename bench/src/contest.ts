// The contest (docs/benchmarks.md): the sandbox's other diners take each table that opens after an
// exponentially distributed delay (mean 30 s, 2 min, 10 min); the service, at default settings,
// watches those venue-days with approved auto_book requests. The figure a diner cares about is
// the share of tables the service booked before someone else took them (catch rate), against the
// best any poller at the achieved cadence T could do: a table that opens at a uniformly random
// moment waits T/2 on average for the next check, and survives a wait w with e^(−w/M), so the
// best share is (M/T)(1 − e^(−T/M)), times e^(−b/M) for the booking time b (the "less the
// booking time"). Run for calendar lags of 0, 30 and 120 s (the sandbox's calendar answers from
// the tables' state that long ago), one lag after the other.
import type { SandboxVenueView } from '../../sandbox/control-client'
import { dayIn, lateSpec } from './api'
import { sleep } from './processes'
import { mapLimit, percentile, round } from './stats'
import type { WebUser } from './users'
import type { World } from './world'

export interface ContestRow {
  meanTakeSeconds: number
  calendarLagSeconds: number
  drops: number
  caught: number
  catchRate: number
  bestPossibleRate: number
  /** The cadence and booking time the best possible rate was computed for. */
  cadenceSeconds: number
  bookingSeconds: number | null
  /** Table opened → booking submitted, for the tables caught. */
  caughtAfterP50s: number | null
}

export const MEANS_S = [30, 120, 600] as const
/** Parties no generated table seats and no other phase watches (the calendar shows only these drops). */
const PARTY_OF_MEAN: Record<(typeof MEANS_S)[number], number> = { 30: 13, 120: 14, 600: 15 }
/** Drops spread over this window, each at a random point of its own share (as cadence-alerts.ts). */
const WINDOW_MS = 120_000

/** (M/T)(1 − e^(−T/M)) × e^(−b/M): the best share of tables a poller every T seconds can book first. */
export function bestPossibleRate(cadenceS: number, meanS: number, bookingS: number): number {
  return (meanS / cadenceS) * (1 - Math.exp(-cadenceS / meanS)) * Math.exp(-bookingS / meanS)
}

interface Drop {
  venue: SandboxVenueView
  day: string
  partySize: number
  meanS: number
  booker: WebUser
  platformEmail: string
  openedAt?: number
  takenAt?: number
}

export async function contest(
  world: World,
  bookers: WebUser[],
  emails: string[],
  options: { intervalMs: number; dropsPerMean: number; lags: readonly number[]; log: (line: string) => void },
): Promise<ContestRow[]> {
  const rows: ContestRow[] = []
  const venues = world.openVenues.slice(3, 6) // 0–2: cadence phase; the last 25: release phase
  for (const [l, lagS] of options.lags.entries()) {
    await world.control.setCalendarLag(lagS * 1000)
    // One booker per (lag, mean): each holds one dinner per day, days 1…drops ahead (near dates).
    const drops: Drop[] = MEANS_S.flatMap((meanS, m) => {
      const venue = venues[m]
      const b = (l * MEANS_S.length + m) % bookers.length
      const booker = bookers[b]
      if (!venue || !booker) throw new Error('not enough venues or bookers for the contest')
      return Array.from({ length: options.dropsPerMean }, (_x, k) => ({
        venue,
        day: dayIn(venue.zone, 1 + k),
        partySize: PARTY_OF_MEAN[meanS],
        meanS,
        booker,
        platformEmail: emails[b] ?? '',
      }))
    })
    options.log(`contest: calendar lag ${lagS} s, ${drops.length} approved auto_book requests`)
    await mapLimit(drops, 8, async (d) => {
      const made = await world.api.createOk(d.booker.token, lateSpec(d.venue.id, d.venue.zone, d.day, d.partySize, 'auto_book'))
      await d.booker.approve(made.id, made.revision)
    })
    await sleep(options.intervalMs + 10_000) // every venue-day subscribed and checked once (its first check is a find)
    const start = Date.now()
    const tableOf = (d: Drop) => ({
      venueId: d.venue.id,
      day: d.day,
      time: '23:00',
      seating: 'Dining Room',
      partyMin: d.partySize,
      partyMax: d.partySize,
    })
    await Promise.all(
      drops.map(async (d, k) => {
        await sleep(start + ((k % options.dropsPerMean) + Math.random()) * (WINDOW_MS / options.dropsPerMean) - Date.now())
        if (!(await world.control.addSlot(tableOf(d)))) throw new Error(`the sandbox refused a table at ${d.venue.id}`)
        d.openedAt = Date.now()
        // The other diner: takes the table after Exp(M), unless the service booked it first. A
        // take later than the cap is not waited for: by then the service had every chance (its
        // booking is in the ledger, or it missed a table still open: counted as not caught).
        const delay = -Math.log(1 - Math.random()) * d.meanS * 1000
        const cap = lagS * 1000 + 3 * options.intervalMs + 60_000
        await sleep(Math.min(delay, cap))
        if (delay <= cap && (await world.control.removeSlot(tableOf(d)))) d.takenAt = Date.now()
      }),
    ).catch((err: unknown) => options.log(`contest: ${err instanceof Error ? err.message : String(err)}`))
    const ledger = await world.control.ledger()
    await Promise.all(drops.map((d) => world.control.removeSlot(tableOf(d)))) // what is left open is taken now
    for (const meanS of MEANS_S) {
      const mine = drops.filter((d) => d.meanS === meanS)
      const caughtAfter = mine.flatMap((d) => {
        const booking = ledger.find(
          (b) => b.email === d.platformEmail && b.venueId === d.venue.id && b.day === d.day && b.partySize === d.partySize,
        )
        return booking && d.openedAt !== undefined ? [booking.bookedAt - d.openedAt] : []
      })
      // The cadence the service achieved for these venue-days: the median gap between their checks (poll traces).
      const ids = new Set(mine.map((d) => `${d.venue.id}:${d.day}:${d.partySize}`))
      const gaps = [...world.traces.checkGapsBetween(start, Date.now(), ids).values()]
      const cadenceS = (percentile(gaps, 50) ?? options.intervalMs) / 1000
      // Booking time: from the poll that found the table to the booking (the release phase's figure), here ~1 s.
      const bookingS = 1
      rows.push({
        meanTakeSeconds: meanS,
        calendarLagSeconds: lagS,
        drops: mine.length,
        caught: caughtAfter.length,
        catchRate: round(caughtAfter.length / Math.max(1, mine.length), 3) ?? 0,
        bestPossibleRate: round(bestPossibleRate(cadenceS, meanS, bookingS), 3) ?? 0,
        cadenceSeconds: round(cadenceS, 1) ?? 0,
        bookingSeconds: bookingS,
        caughtAfterP50s: round((percentile(caughtAfter, 50) ?? Number.NaN) / 1000, 1),
      })
    }
  }
  await world.control.setCalendarLag(0)
  return rows
}
