// The release contest: venues open new days at instants the service is not told (no
// text states them), and other diners take each table that opens after an exponentially
// distributed time (mean 5 s or 30 s), over several consecutive release days. Per day: the rules
// the service had learned before that day's release (their error in seconds), its catch rate
// per mean, and the best a poller checking once a second could do.
//
// Several days in one run: the service instance and its sandbox world run on a compressed
// release clock (RELEASE_CLOCK, src/watching/release-clock.ts; the sandbox's /__sandbox/release-clock):
// from the epoch, a venue's day lasts DAY_SECONDS real seconds, so each venue releases once every
// DAY_SECONDS. Only release instants, which days are on sale and the rule's time of day follow that
// clock; requests, alerts, the budget and the competitors' take times are in real seconds, and
// every error below is in real seconds. A separate service instance and sandbox world (the
// coalescing phase's host, reset), so no other phase sees the compressed clock.
import { type LedgerEntry, type SandboxVenueView, sandboxControl } from '../../sandbox/control-client'
import { addDays, instantOf, wallClockAt } from '../../src/lib/zoned-time'
import { DEFAULT_USER_AGENT } from '../../src/platform/user-agent'
import { busiest } from './budget'
import { sleep } from './processes'
import { numberSetting } from './settings'
import { mapLimit, percentile, round } from './stats'
import { newWebUser, type WebUser } from './users'
import type { ServiceInstance, World } from './world'

export interface ContestDay {
  day: number
  /** Venues with a learned rule before this day's release, and its error then (real s: the prediction this day's burst used). */
  rulesKnown: number
  ruleErrorP50s: number | null
  ruleErrorMaxS: number | null
  /** Catch rate and tables per competitors' mean take time. */
  means: { meanTakeSeconds: number; tables: number; caught: number; catchRate: number; bestOneSecondPoller: number }[]
  /** Table opened → booking submitted, for the tables caught. */
  caughtAfterP50s: number | null
}

export interface ReleaseLearning {
  venues: number
  /** Share of venues whose rule was within 60 s after their first observed release, and within 5 s after the second. */
  withinSixtySecondsAfterFirst: number
  withinFiveSecondsAfterSecond: number
  errorsAfterFirstS: (number | null)[]
  errorsAfterSecondS: (number | null)[]
  realSecondsPerDay: number
  /** The platform's busiest 10 s in the contest's world, and the budget's bound. */
  maxCallsInAny10Seconds: number
}

const DAY_SECONDS = numberSetting('BENCH_CONTEST_DAY_SECONDS')
const SPEED = 86_400 / DAY_SECONDS
const MEANS_S = [5, 30] as const
/** Tables per venue and day: half taken after Exp(5 s), half after Exp(30 s); each its own request (one table each). */
const TABLES = 4
const PARTY = 13 // no generated table seats 13: the only tables are the contest's
/** The hidden rules: days ahead, and the local time, spread over the day so that bursts do not overlap. */
const RULES = [
  { days: 7, time: '06:07:00' },
  { days: 14, time: '10:00:00' },
  { days: 21, time: '13:45:30' },
  { days: 10, time: '17:20:00' },
  { days: 28, time: '20:52:00' },
  { days: 30, time: '23:30:15' },
] as const
/** From the bench's start to the earliest day one: time to make the first venue's requests and tables. */
const SETUP_LEAD_MS = 120_000
/** A competitor waits at most this long (real ms): a table still open then is counted as the service's to have caught. */
const TAKE_CAP_MS = 150_000

/** The compressed clock both sides share, from the bench's side (it may not import the service's). */
function clockFrom(epoch: number) {
  const toPlatform = (ms: number) => epoch + (ms - epoch) * SPEED
  const toReal = (ms: number) => epoch + (ms - epoch) / SPEED
  return {
    /** The real instant a venue's day `date` opens at `time` (its local time) by the compressed clock. */
    instant: (date: string, time: string, zone: string) => Math.round(toReal(instantOf(date, time, zone))),
    dateAt: (ms: number, zone: string) => wallClockAt(toPlatform(ms), zone).date,
  }
}

/** (M/T)(1 − e^(−T/M)) × e^(−b/M): the best share a poller every T seconds books first, booking in b s. */
const bestRate = (cadenceS: number, meanS: number, bookingS: number) =>
  (meanS / cadenceS) * (1 - Math.exp(-cadenceS / meanS)) * Math.exp(-bookingS / meanS)

interface Table {
  venue: SandboxVenueView
  rule: (typeof RULES)[number]
  day: number
  date: string
  releaseAt: number
  time: string
  meanS: number
  booker: WebUser
  email: string
  takeAt?: number
}

export async function releaseContest(
  world: World,
  options: { days: number; log: (line: string) => void },
): Promise<{ days: ContestDay[]; learning: ReleaseLearning }> {
  const epoch = Date.now()
  const clock = clockFrom(epoch)
  // Venues the service can book at: the contest counts bookings (a reCAPTCHA or Tock venue only
  // alerts, and two of them among its six capped the catch rate at 0.67).
  const venues = world.bookableVenues.slice(6, 6 + RULES.length)
  if (venues.length < RULES.length) throw new Error('not enough open venues for the release contest')
  const instance = await contestInstance(world, epoch, venues, options.log)
  try {
    // One booker per venue and table: its requests are that table's on consecutive days, never two
    // on one date (the service refuses overlapping dinners of one user).
    const bookers: { user: WebUser; email: string }[] = []
    for (let i = 0; i < TABLES * venues.length; i++) {
      const email = `bench-release-contest${i}@sandbox.example`
      bookers.push({ user: await newWebUser(instance.service.origin, `release-contest${i}`, email), email })
    }
    // A clean day one: each venue's requests and tables are made after the venue's release before
    // day one, so the service never sees the venue release before the day it is measured on. Day
    // one is the venue's first release at least SETUP_LEAD_MS from now; its setup waits for the
    // release before (a compressed day earlier) and must end 30 s before day one's.
    const ready = Date.now() + SETUP_LEAD_MS
    const previousRelease = new Map<number, number>()
    const tables: Table[] = venues.flatMap((venue, v) => {
      const rule = RULES[v] ?? RULES[0]
      let date = clock.dateAt(ready, venue.zone)
      while (clock.instant(date, rule.time, venue.zone) < ready) date = addDays(date, 1)
      previousRelease.set(venue.id, clock.instant(addDays(date, -1), rule.time, venue.zone))
      return Array.from({ length: options.days }, (_x, k) => {
        const releaseDate = addDays(date, k)
        return Array.from({ length: TABLES }, (_y, t) => {
          const booker = bookers[v * TABLES + t]
          if (!booker) throw new Error('no booker')
          return {
            venue,
            rule,
            day: k + 1,
            date: addDays(releaseDate, rule.days),
            releaseAt: clock.instant(releaseDate, rule.time, venue.zone),
            time: `23:${String(t * 5).padStart(2, '0')}`,
            meanS: MEANS_S[Math.floor(t / (TABLES / MEANS_S.length))] ?? 30,
            booker: booker.user,
            email: booker.email,
          }
        })
      }).flat()
    })
    options.log(
      `release contest: ${tables.length} approved auto_book requests, one table each, made per venue after its release before day one`,
    )
    const setUp = async (venue: SandboxVenueView) => {
      const mine = tables.filter((t) => t.venue.id === venue.id)
      await sleep((previousRelease.get(venue.id) ?? 0) + 2_000 - Date.now())
      await mapLimit(mine, 4, async (t) => {
        const made = await instance.api.createOk(t.booker.token, specOf(t))
        await t.booker.approve(made.id, made.revision)
        if (!(await instance.control.addSlot(tableOf(t)))) throw new Error(`the sandbox refused a table at ${t.venue.id}`)
      })
      const firstRelease = mine[0]?.releaseAt ?? 0
      if (Date.now() > firstRelease - 30_000)
        throw new Error(`setting up ${venue.id} for the release contest took too long: its day one is too near`)
    }
    const learning: { afterFirst: (number | null)[]; afterSecond: (number | null)[] } = { afterFirst: [], afterSecond: [] }
    const days: ContestDay[] = []
    for (let k = 1; k <= options.days; k++) {
      const today = tables.filter((t) => t.day === k)
      // Each venue on its own: the rule the service knows just before the venue's release (what its
      // burst follows), then the competitors, who take each table after Exp(M) unless it was booked first.
      const known = await Promise.all(
        venues.map(async (venue, v) => {
          const mine = today.filter((x) => x.venue.id === venue.id)
          const releaseAt = mine[0]?.releaseAt
          if (releaseAt === undefined) return null
          if (k === 1) await setUp(venue)
          await sleep(releaseAt - 15_000 - Date.now())
          const error = await ruleError(instance, venue, RULES[v] ?? RULES[0])
          await Promise.all(
            mine.map(async (t) => {
              const delay = Math.min(-Math.log(1 - Math.random()) * t.meanS * 1000, TAKE_CAP_MS)
              await sleep(t.releaseAt + delay - Date.now())
              if (await instance.control.removeSlot(tableOf(t))) t.takeAt = Date.now()
            }),
          )
          return error
        }),
      )
      const after = await Promise.all(venues.map((venue, v) => ruleError(instance, venue, RULES[v] ?? RULES[0])))
      if (k === 1) learning.afterFirst = after
      if (k === 2) learning.afterSecond = after
      const ledger = await instance.control.ledger()
      days.push(dayFigures(k, today, ledger, known, instance))
      options.log(`release contest day ${k}: ${JSON.stringify(days.at(-1))}`)
      for (const line of tableLines(today, ledger, instance)) options.log(`release contest day ${k}: ${line}`)
    }
    const perSecond = new Map(await instance.control.callsPerSecond(epoch, DEFAULT_USER_AGENT))
    const share = (errors: (number | null)[], bound: number) =>
      round(errors.filter((e) => e !== null && e <= bound).length / Math.max(1, venues.length), 2) ?? 0
    return {
      days,
      learning: {
        venues: venues.length,
        withinSixtySecondsAfterFirst: share(learning.afterFirst, 60),
        withinFiveSecondsAfterSecond: share(learning.afterSecond, 5),
        errorsAfterFirstS: learning.afterFirst,
        errorsAfterSecondS: learning.afterSecond,
        realSecondsPerDay: DAY_SECONDS,
        maxCallsInAny10Seconds: busiest(perSecond, 10),
      },
    }
  } finally {
    await instance.service.stop()
  }
}

/** Its own service instance on the coalescing phase's sandbox world, reset, with the compressed clock and the hidden rules. */
async function contestInstance(
  world: World,
  epoch: number,
  venues: SandboxVenueView[],
  log: (line: string) => void,
): Promise<ServiceInstance> {
  const host = 'localhost'
  const control = sandboxControl({ fetcher: globalThis, baseUrl: `http://${host}:${new URL(world.sandbox.origin).port}` })
  await control.reset()
  await control.setReleaseClock({ epoch, secondsPerDay: DAY_SECONDS })
  for (const [v, venue] of venues.entries()) {
    const rule = RULES[v] ?? RULES[0]
    await control.setReleaseRule(venue.id, { days: rule.days, time: rule.time, stated: false })
  }
  log(`release contest: a day every ${DAY_SECONDS} s; ${venues.length} venues open days at instants no text states`)
  return world.startInstance('contest', host, 5, { RELEASE_CLOCK: `compressed:${epoch}:${DAY_SECONDS}` })
}

const specOf = (t: Table) => ({
  title: 'bench release contest',
  venue_ids: [t.venue.id],
  dates: [t.date],
  earliest_time: t.time,
  latest_time: t.time,
  timezone: t.venue.zone,
  party_size: PARTY,
  mode: 'auto_book' as const,
  expires_at: new Date(instantOf(t.date, '22:00', t.venue.zone)).toISOString(),
})

const tableOf = (t: Table) => ({ venueId: t.venue.id, day: t.date, time: t.time, seating: 'Dining Room', partyMin: PARTY, partyMax: PARTY })

/**
 * How far the rule restaurant search shows for the venue is from its hidden one, in real seconds
 * (null: no rule known yet). The search shows HH:MM of the venue's clock: a minute of it is
 * DAY_SECONDS / 1440 real seconds, the resolution of these errors.
 */
async function ruleError(instance: ServiceInstance, venue: SandboxVenueView, rule: (typeof RULES)[number]): Promise<number | null> {
  const user = instance.bulk[0]
  if (!user) return null
  const res = await instance.api.call(user.token, 'GET', `/api/v1/restaurants?q=${encodeURIComponent(venue.name)}`)
  const found = (
    res.body as {
      restaurants?: { venue_id: number; release_rule: { days_in_advance: number; time_of_day: string; source: string } | null }[]
    }
  ).restaurants?.find((r) => r.venue_id === venue.id)?.release_rule
  if (found?.source !== 'learned') return null
  const lead = (days: number, time: string) => {
    const [h = 0, m = 0, s = 0] = time.split(':').map(Number)
    return days * 86_400 - (h * 3600 + m * 60 + s)
  }
  return round(Math.abs(lead(found.days_in_advance, found.time_of_day) - lead(rule.days, rule.time)) / SPEED, 1)
}

function dayFigures(day: number, tables: Table[], ledger: LedgerEntry[], known: (number | null)[], instance: ServiceInstance): ContestDay {
  const bookedAt = (t: Table) =>
    ledger.find((b) => b.email === t.email && b.venueId === t.venue.id && b.day === t.date && b.time === t.time)?.bookedAt ?? null
  const caughtAfter = tables.flatMap((t) => {
    const at = bookedAt(t)
    return at === null ? [] : [at - t.releaseAt]
  })
  // The service's booking time that day: the poll that found a table caught → its booking submitted.
  const booking = tables.flatMap((t) => {
    const at = bookedAt(t)
    const found = instance.traces.polls.find(
      (p) => p.id === `${t.venue.id}:${t.date}:${PARTY}` && p.pushed > 0 && p.firedAt >= t.releaseAt - 1_000,
    )
    return at !== null && found ? [at - found.firedAt] : []
  })
  const bookingS = (percentile(booking, 50) ?? 500) / 1000
  const errors = known.filter((e): e is number => e !== null)
  return {
    day,
    rulesKnown: errors.length,
    ruleErrorP50s: round(percentile(errors, 50), 1),
    ruleErrorMaxS: round(percentile(errors, 100), 1),
    means: MEANS_S.map((meanS) => {
      const mine = tables.filter((t) => t.meanS === meanS)
      const caught = mine.filter((t) => bookedAt(t) !== null).length
      return {
        meanTakeSeconds: meanS,
        tables: mine.length,
        caught,
        catchRate: round(caught / Math.max(1, mine.length), 2) ?? 0,
        // A poller checking every second, from a random phase, that books as fast as the service did that day.
        bestOneSecondPoller: round(bestRate(1, meanS, Math.min(bookingS, 5)), 2) ?? 0,
      }
    }),
    caughtAfterP50s: round((percentile(caughtAfter, 50) ?? Number.NaN) / 1000, 2),
  }
}

/**
 * One line per table, so a run says where a lost table went: when the competitor took it, when
 * the service booked it, and what the venue-day's polls did from 10 s before its release until it
 * was gone (checks made, the first that saw it). Times in seconds after the release.
 */
function tableLines(tables: Table[], ledger: LedgerEntry[], instance: ServiceInstance): string[] {
  const after = (ms: number | null | undefined) => (ms == null ? '-' : String(round(ms / 1000, 2)))
  return tables.map((t) => {
    const booked = ledger.find((b) => b.email === t.email && b.venueId === t.venue.id && b.day === t.date && b.time === t.time)
    const end = t.takeAt ?? booked?.bookedAt ?? t.releaseAt + TAKE_CAP_MS
    const polls = instance.traces
      .pollsBetween(t.releaseAt - 10_000, end)
      .filter((p) => p.id === `${t.venue.id}:${t.date}:${PARTY}` && p.checked)
    const sawIt = polls.find((p) => p.firedAt >= t.releaseAt - 1_000 && p.pushed > 0)
    return [
      `${t.venue.id} ${t.date} ${t.time} mean ${t.meanS} s:`,
      booked ? `booked +${after(booked.bookedAt - t.releaseAt)}` : 'lost',
      `taken +${after(t.takeAt === undefined ? null : t.takeAt - t.releaseAt)}`,
      `checks ${polls.length} (first +${after(polls[0] ? polls[0].firedAt - t.releaseAt : null)})`,
      `first seeing it +${after(sawIt ? sawIt.firedAt - t.releaseAt : null)}`,
    ].join(' ')
  })
}
