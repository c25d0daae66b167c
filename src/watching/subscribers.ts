// An availability object's own storage (SQLite): who is subscribed, the slots its last poll saw,
// and its pace. Every write here happens only when something changed: an idle poll writes none.
import type { VenueDay } from './news'
import type { Subscription } from './schedule'

export interface Subscriber extends Subscription {
  /** Delivered at least once: only new slots go to it; until then every matching slot does. */
  primed: boolean
  /** Grows with each subscription of the request: a poll only primes the version it delivered to. */
  version: number
}

/** What the object watches (stored at the first subscription). */
export interface Subject {
  venueDay: VenueDay
  venueName: string
  /** The venue's page on the platform's web site (platform/web-pages.ts), for alert links. */
  venuePage: string | null
  /** The user whose paired device checks this venue-day; absent for the shared objects. */
  via?: string | null
}

/**
 * When the platform was last checked, recoverable without a write per poll: while `offsetMs` is
 * set, the alarm is always set exactly `offsetMs` after the last successful check, so the check
 * time is the alarm time minus the offset. Otherwise it is `checkedAt` as written.
 */
export interface Pace {
  offsetMs: number | null
  checkedAt: number | null
  /**
   * The platform's current failure for this venue-day, with how many polls in a row failed and
   * whether the subscribers were told (a passing failure is told only once it persists). A pace
   * kept before `told` existed had told at once.
   */
  failing: { problem: string; failures: number; told?: boolean } | null
}

type Row = { request_id: string; filter: string; plan: string; until: number; primed: number; version: number }

export class SubscriberStore {
  constructor(
    private readonly sql: SqlStorage,
    private readonly kv: DurableObjectStorage,
  ) {
    sql.exec(`CREATE TABLE IF NOT EXISTS subscribers (
      request_id TEXT PRIMARY KEY, filter TEXT NOT NULL, plan TEXT NOT NULL, until INTEGER NOT NULL,
      primed INTEGER NOT NULL, version INTEGER NOT NULL)`)
  }

  all(): Subscriber[] {
    return this.sql
      .exec<Row>('SELECT * FROM subscribers')
      .toArray()
      .map((r) => ({
        requestId: r.request_id,
        filter: JSON.parse(r.filter),
        plan: JSON.parse(r.plan),
        until: r.until,
        primed: r.primed === 1,
        version: r.version,
      }))
  }

  /** A new or changed subscription starts unprimed: it gets every matching slot at the next poll. */
  put(sub: Subscription): void {
    this.sql.exec(
      `INSERT INTO subscribers (request_id, filter, plan, until, primed, version) VALUES (?, ?, ?, ?, 0, 1)
       ON CONFLICT (request_id) DO UPDATE
       SET filter = excluded.filter, plan = excluded.plan, until = excluded.until, primed = 0, version = version + 1`,
      sub.requestId,
      JSON.stringify(sub.filter),
      JSON.stringify(sub.plan),
      sub.until,
    )
  }

  remove(requestIds: string[]): void {
    for (const id of requestIds) this.sql.exec('DELETE FROM subscribers WHERE request_id = ?', id)
  }

  /** Drops subscriptions a request no longer has, unless it subscribed again meanwhile. */
  drop(subscribers: Pick<Subscriber, 'requestId' | 'version'>[]): void {
    for (const s of subscribers) this.sql.exec('DELETE FROM subscribers WHERE request_id = ? AND version = ?', s.requestId, s.version)
  }

  /** Marks the subscriptions as delivered (or not), unless the request subscribed again meanwhile. */
  prime(subscribers: Pick<Subscriber, 'requestId' | 'version'>[], primed: boolean): void {
    for (const s of subscribers) {
      this.sql.exec('UPDATE subscribers SET primed = ? WHERE request_id = ? AND version = ?', primed ? 1 : 0, s.requestId, s.version)
    }
  }

  /** Drops subscriptions whose request expired or whose window passed; returns the rest. */
  live(now: number): Subscriber[] {
    const all = this.all()
    const ended = all.filter((s) => s.until <= now).map((s) => s.requestId)
    if (ended.length > 0) this.remove(ended)
    return all.filter((s) => s.until > now)
  }

  subject(): Promise<Subject | undefined> {
    return this.kv.get<Subject>('subject')
  }

  async rememberSubject(subject: Subject): Promise<void> {
    const known = await this.subject()
    const changed = !known || known.venueName !== subject.venueName || known.venuePage !== subject.venuePage || known.via !== subject.via
    if (changed) await this.kv.put('subject', subject)
  }

  async seen(): Promise<string[]> {
    return (await this.kv.get<string[]>('seen')) ?? []
  }

  async setSeen(keys: string[]): Promise<void> {
    await this.kv.put('seen', keys)
  }

  /** When this day opens, as the venue's horizon object said (horizon-object.ts); null: nothing said, the subscriptions' own plans stand. */
  async venueRelease(): Promise<number[] | null> {
    return (await this.kv.get<number[] | null>('venueRelease')) ?? null
  }

  /** Writes the day's openings only when they changed. */
  async setVenueRelease(openings: number[] | null): Promise<void> {
    if (JSON.stringify(await this.venueRelease()) !== JSON.stringify(openings)) await this.kv.put('venueRelease', openings)
  }

  async pace(): Promise<Pace> {
    return (await this.kv.get<Pace>('pace')) ?? { offsetMs: null, checkedAt: null, failing: null }
  }

  /** Writes the pace only when it differs from the stored one. */
  async setPace(next: Pace): Promise<void> {
    if (JSON.stringify(await this.pace()) !== JSON.stringify(next)) await this.kv.put('pace', next)
  }
}
