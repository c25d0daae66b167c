// One Durable Object per venue: watches the venue's booking horizon (the calendar's
// `last_calendar_day`) while any of its days is watched, learns its release rule from the moves
// (release-inference.ts), and tells the availability objects of the venue when their days open
// (their release bursts). Every request watching the venue shares what it learns; the views read
// it here (venues/restaurants.ts). What it stores, and when (rows written cost money, and an alarm
// is one): the horizon as last seen at each check, a move when the horizon moves (once a day), the
// rule when it changes, a watcher when an availability object first subscribes or watches longer.
// The checks themselves are paced by horizon-plan.ts, within the service-wide budget.
import { DurableObject } from 'cloudflare:workers'
import { expectRelease, leaseCalls } from '../budget/budget'
import { dbOf } from '../db/client'
import { findVenues } from '../db/venues'
import { addDays } from '../lib/zoned-time'
import { servicePlatform } from '../runtime/platform-health'
import { type HorizonMove, type HorizonObservation, type HorizonSeen, observeHorizon, withMove } from './horizon-moves'
import {
  CLOSE_EVERY_MS,
  closeWindowAt,
  type HorizonFacts,
  KNOWN_EVERY_MS,
  LEARNING_EVERY_MS,
  nextHorizonCheck,
  openingsOfDay,
  usableRule,
} from './horizon-plan'
import { traceCall } from './poll-trace'
import { releaseClockFrom, secondOfDayOf } from './release-clock'
import { type LearnedRule, learnRule } from './release-inference'

/** What an availability object of the venue tells when it subscribes: its name, its day, and until when it watches. */
interface HorizonWatcher {
  name: string
  day: string
  until: number
}

interface VenueFacts {
  venueId: number
  zone: string
  stated: { daysInAdvance: number; secondOfDay: number } | null
}

type WatcherRow = { name: string; day: string; until: number; openings: string | null }

/** Calls the close watch expects around an instant, announced so that polls leave it room (budget/call-window.ts). */
const CLOSE_CALLS_ANNOUNCED = 2

export const horizonObject = (env: Cloudflare.Env, venueId: number) => env.HORIZONS.get(env.HORIZONS.idFromName(String(venueId)))

export class HorizonObject extends DurableObject<Cloudflare.Env> {
  #platform = servicePlatform(this.env, { callerLeases: true })
  #clock = releaseClockFrom(this.env)

  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env)
    ctx.storage.sql.exec(
      'CREATE TABLE IF NOT EXISTS watchers (name TEXT PRIMARY KEY, day TEXT NOT NULL, until INTEGER NOT NULL, openings TEXT)',
    )
  }

  /**
   * An availability object of `venueId` watches `day` until `until`: the horizon is watched
   * meanwhile. Returns the instants the day opens (null: nothing known, its requests' plans stand).
   */
  async watch(venueId: number, watcher: HorizonWatcher): Promise<number[] | null> {
    const started = Date.now()
    const venue = await this.#venue(venueId, true)
    if (!venue) return null
    const known = this.ctx.storage.sql.exec<WatcherRow>('SELECT * FROM watchers WHERE name = ?', watcher.name).toArray()[0]
    const facts = await this.#facts(venue)
    const openings = openingsOfDay(facts, watcher.day)
    if (!known || known.until < watcher.until || known.day !== watcher.day || known.openings !== JSON.stringify(openings)) {
      this.ctx.storage.sql.exec(
        'INSERT OR REPLACE INTO watchers (name, day, until, openings) VALUES (?, ?, ?, ?)',
        watcher.name,
        watcher.day,
        Math.max(watcher.until, known?.until ?? 0),
        JSON.stringify(openings),
      )
    }
    await this.#schedule(facts, started)
    traceCall(this.env, 'horizon', 'watch', started)
    return openings
  }

  /** A calendar answer another object got for this venue (calendar-object.ts): a free look at the horizon. */
  async observe(venueId: number, observation: HorizonObservation): Promise<void> {
    const venue = await this.#venue(venueId, false)
    if (venue) await this.#take(venue, observation)
  }

  /** The rule learned so far (null: none yet), for the views. */
  async learned(): Promise<LearnedRule | null> {
    return (await this.ctx.storage.get<LearnedRule>('learned')) ?? null
  }

  override async alarm(): Promise<void> {
    const now = Date.now()
    const venue = await this.#venue(null, false)
    if (!venue) return
    const facts = await this.#facts(venue)
    if (this.#watchedUntil(now) <= now) return
    const around = closeWindowAt(facts, now)
    const lease = await leaseCalls(this.env, {
      tier: around !== null ? 'burst' : 'far',
      cost: 1,
      key: `horizon:${venue.venueId}`,
      intervalMs: around !== null ? CLOSE_EVERY_MS : usableRule(facts) ? KNOWN_EVERY_MS : LEARNING_EVERY_MS,
    })
    if (lease.waitMs > 0) {
      await this.ctx.storage.setAlarm(now + lease.waitMs)
      return
    }
    const next = facts.seen ? addDays(facts.seen.lastDay, 1) : this.#clock.wallAt(now, venue.zone).date
    const sentAt = Date.now()
    const answer = await this.#platform.venueCalendar({ venueId: venue.venueId, partySize: 2, startDate: next, endDate: next })
    const lastDay = answer.kind === 'ok' ? answer.value.lastCalendarDay : null
    if (lastDay) await this.#take(venue, { lastDay, sentAt, answeredAt: Date.now() })
    else await this.ctx.storage.setAlarm(Date.now() + LEARNING_EVERY_MS) // no answer: look again later, not at once
    traceCall(this.env, 'horizon', 'alarm', now)
  }

  /** One look at the horizon: a move is kept, the rule learned again, and the watched days told when they open. */
  async #take(venue: VenueFacts, observation: HorizonObservation): Promise<void> {
    const facts = await this.#facts(venue)
    const { seen, move } = observeHorizon(facts.seen, observation)
    await this.ctx.storage.put('seen', seen)
    if (move) {
      const moves = withMove(facts.moves, move)
      const learned = learnRule(moves, venue.zone, this.#clock)
      await this.ctx.storage.put({ moves, learned })
      await this.#tellWatchers({ ...facts, seen, moves, learned })
    }
    await this.#schedule({ ...(await this.#facts(venue)) }, Date.now())
  }

  /** Each watched day whose opening instants changed hears them (availability-object.ts venueRelease). */
  async #tellWatchers(facts: HorizonFacts): Promise<void> {
    const now = Date.now()
    this.ctx.storage.sql.exec('DELETE FROM watchers WHERE until <= ?', now)
    const rows = this.ctx.storage.sql.exec<WatcherRow>('SELECT * FROM watchers').toArray()
    await Promise.all(
      rows.map(async (row) => {
        const openings = openingsOfDay(facts, row.day)
        const said = JSON.stringify(openings)
        if (said === row.openings) return
        const told = await this.env.AVAILABILITY.get(this.env.AVAILABILITY.idFromName(row.name))
          .venueRelease(openings)
          .then(() => true)
          .catch(() => false)
        if (told) this.ctx.storage.sql.exec('UPDATE watchers SET openings = ? WHERE name = ?', said, row.name)
      }),
    )
  }

  /** Sets the alarm for the next check (earlier only, or when none is set), and announces a close watch to the budget. */
  async #schedule(facts: HorizonFacts, now: number): Promise<void> {
    const check = nextHorizonCheck(facts, this.#watchedUntil(now), now)
    if (!check) {
      await this.ctx.storage.deleteAlarm()
      return
    }
    const alarm = await this.ctx.storage.getAlarm()
    if (alarm === null || alarm <= now || check.at < alarm) await this.ctx.storage.setAlarm(check.at)
    const venue = await this.ctx.storage.get<VenueFacts>('venue')
    if (check.around !== null && venue) {
      await expectRelease(this.env, { key: `horizon:${venue.venueId}`, at: check.around, calls: CLOSE_CALLS_ANNOUNCED })
    }
  }

  #watchedUntil(now: number): number {
    const row = this.ctx.storage.sql.exec<{ until: number | null }>('SELECT max(until) AS until FROM watchers WHERE until > ?', now).one()
    return row.until ?? 0
  }

  async #facts(venue: VenueFacts): Promise<HorizonFacts> {
    const got = await this.ctx.storage.get<HorizonSeen | HorizonMove[] | LearnedRule>(['seen', 'moves', 'learned'])
    return {
      seen: (got.get('seen') as HorizonSeen | undefined) ?? null,
      moves: (got.get('moves') as HorizonMove[] | undefined) ?? [],
      learned: (got.get('learned') as LearnedRule | undefined) ?? null,
      stated: venue.stated,
      zone: venue.zone,
      clock: this.#clock,
    }
  }

  /** The venue's zone and stated rule: read from the catalog when an object subscribes (`refresh`), else as kept. */
  async #venue(venueId: number | null, refresh: boolean): Promise<VenueFacts | null> {
    const kept = await this.ctx.storage.get<VenueFacts>('venue')
    const id = venueId ?? kept?.venueId
    if (id === undefined || (kept && !refresh)) return kept ?? null
    const [row] = await findVenues(dbOf(this.env.DB), [id])
    if (!row) return kept ?? null
    const stated =
      row.releaseDaysInAdvance !== null && row.releaseTime !== null
        ? { daysInAdvance: row.releaseDaysInAdvance, secondOfDay: secondOfDayOf(row.releaseTime) }
        : null
    const venue: VenueFacts = { venueId: id, zone: row.timeZone, stated }
    if (JSON.stringify(kept) !== JSON.stringify(venue)) await this.ctx.storage.put('venue', venue)
    return venue
  }
}
