// One Durable Object per (venue, day, party size). Requests subscribe to it while they watch;
// it owns the alarm that asks the platform (once per interval: the fastest any subscriber's plan
// needs, release bursts included), works out what changed, and calls only the subscribers with a
// matching new slot. Availability needs no user token. An idle poll writes nothing but its alarm.
import { DurableObject } from 'cloudflare:workers'
import type { Outcome, Slot } from '../platform/api'
import { availabilityName, type CheckProblem, type Heard } from '../requests/events'
import { deviceObject, requestObject } from '../runtime/deps'
import { servicePlatform } from '../runtime/platform-health'
import { backoffAfter, bursting, intervalAt, nextPollAt } from './cadence'
import { deliveriesFor, newSlots, sameKeys } from './deliveries'
import { budget } from './limits'
import { slotKey } from './match'
import { readFailure, tellOfFailure } from './platform-failures'
import { startPollTrace, traceCall } from './poll-trace'
import type { Subscription } from './schedule'
import { type Pace, type Subject, type Subscriber, SubscriberStore } from './subscribers'

/** Calls to subscribers at once; each may book (details, book) before it answers. */
const PUSH_CONCURRENCY = 50

export class AvailabilityObject extends DurableObject<Cloudflare.Env> {
  #store = new SubscriberStore(this.ctx.storage.sql, this.ctx.storage)
  #platform = servicePlatform(this.env)
  /** The last successful answer, kept in memory: a subscriber arriving meanwhile is primed from it. */
  #answer: { at: number; slots: Slot[] } | null = null

  /** Registers (or replaces) a request's subscription; it hears about the matching slots soon. */
  async subscribe(subject: Subject, subscription: Subscription): Promise<void> {
    const started = Date.now()
    await this.#store.rememberSubject(subject)
    this.#store.put(subscription)
    const [alarm, pace] = await Promise.all([this.ctx.storage.getAlarm(), this.#store.pace()])
    // A new subscriber gets a first look soon, unless the platform is failing: then it waits for
    // the back-off like everyone (asking again during a block keeps the block in place).
    if (!pace.failing && (alarm === null || alarm > started)) {
      // Pulling the alarm in breaks "alarm − offset = last check": keep the time as written.
      await this.#store.setPace({ ...pace, offsetMs: null, checkedAt: await this.#lastChecked() })
      await this.ctx.storage.setAlarm(started)
    }
    traceCall(this.env, 'availability', 'subscribe', started)
  }

  /**
   * The next run asks the platform at once, whatever the cadence and the answer in memory: the
   * local demo control (requests/demo-table.ts) just opened a table here. A failing platform
   * keeps its back-off (asking again during a block keeps the block in place).
   */
  async checkNow(): Promise<void> {
    const pace = await this.#store.pace()
    if (pace.failing) return
    await this.#store.setPace({ ...pace, offsetMs: null, checkedAt: await this.#lastChecked() })
    this.#answer = null
    await this.ctx.storage.setAlarm(Date.now())
  }

  async unsubscribe(requestId: string): Promise<void> {
    traceCall(this.env, 'availability', 'unsubscribe', Date.now())
    this.#store.remove([requestId])
  }

  /** When the platform last answered for this venue-day: from memory, or recovered from the alarm (subscribers.ts). */
  async lastChecked(): Promise<number | null> {
    traceCall(this.env, 'availability', 'lastChecked', Date.now())
    return this.#lastChecked()
  }

  async #lastChecked(): Promise<number | null> {
    if (this.#answer) return this.#answer.at
    const pace = await this.#store.pace()
    const alarm = pace.offsetMs === null ? null : await this.ctx.storage.getAlarm()
    return alarm === null || pace.offsetMs === null ? pace.checkedAt : alarm - pace.offsetMs
  }

  /** The last good check, inside an alarm run: the alarm that fired was set `offsetMs` after it. */
  #lastGood(pace: Pace, now: number): number | null {
    return this.#answer?.at ?? (pace.offsetMs === null ? pace.checkedAt : now - pace.offsetMs)
  }

  override async alarm(): Promise<void> {
    const now = Date.now()
    await this.#poll(now)
    traceCall(this.env, 'availability', 'alarm', now)
  }

  async #poll(now: number): Promise<void> {
    const [subject, pace] = await Promise.all([this.#store.subject(), this.#store.pace()])
    const subscribers = this.#store.live(now)
    const trace = startPollTrace(this.env, this.ctx.storage.sql, subject ? availabilityName(subject.venueDay) : this.ctx.id.toString())
    if (!subject || subscribers.length === 0) {
      await this.#store.setPace({ offsetMs: null, checkedAt: this.#lastGood(pace, now), failing: null })
      await this.ctx.storage.deleteAlarm()
      trace?.({ ok: true, changed: false, nextAt: null, pushed: 0 })
      return
    }
    const plans = subscribers.map((s) => s.plan)
    const gap = Math.min(...plans.map((p) => intervalAt(p, now)))
    const answer = this.#answer
    let nextAt: number
    let pushed = 0
    let changed = false
    let ok = true
    if (answer && now - answer.at < gap - 50) {
      // Not due: a new subscriber is primed from the answer in memory, the schedule stays.
      pushed = await this.#deliver(subject, subscribers, answer.slots, [], answer.at)
      nextAt = nextPollAt(plans, answer.at)
      if (!pace.failing) await this.#store.setPace({ offsetMs: nextAt - answer.at, checkedAt: null, failing: null })
    } else {
      const wait = bursting(plans, now) ? await budget(this.env, `venue:${subject.venueDay.venueId}`) : 0
      if (wait > 0) {
        await this.ctx.storage.setAlarm(now + wait) // the venue's cap: try again shortly
        trace?.({ ok: true, changed: false, nextAt: now + wait, pushed: 0 })
        return
      }
      const outcome = await this.#find(subject, now)
      const polled = await this.#afterPoll(subject, subscribers, outcome, pace, now, gap)
      ;({ nextAt, pushed, changed } = polled)
      ok = outcome.kind === 'ok'
      if (outcome.kind === 'ok') await this.#store.setPace({ offsetMs: nextAt - now, checkedAt: null, failing: null })
    }
    // A request that subscribed while this run waited is primed right away.
    const delivered = new Set(subscribers.map((s) => `${s.requestId}:${s.version}`))
    if (this.#store.all().some((s) => !delivered.has(`${s.requestId}:${s.version}`))) nextAt = Math.min(nextAt, Date.now())
    await this.ctx.storage.setAlarm(nextAt)
    trace?.({ ok, changed, nextAt, pushed })
  }

  async #afterPoll(subject: Subject, subscribers: Subscriber[], outcome: Outcome<Slot[]>, pace: Pace, now: number, gap: number) {
    if (outcome.kind !== 'ok') {
      const failures = (pace.failing?.failures ?? 0) + 1
      const reading = readFailure(outcome)
      const problem: CheckProblem = { says: reading.says, reason: reading.statusReason }
      const told = pace.failing && pace.failing.told !== false ? pace.failing.problem : null
      const tell = tellOfFailure(reading, failures, told)
      if (tell) await this.#tellAll(subject, subscribers, problem)
      const failing = { problem: problem.says, failures, told: tell || told !== null }
      await this.#store.setPace({ offsetMs: null, checkedAt: this.#lastGood(pace, now), failing })
      // A block or a refused key waits long (asking again keeps a block in place); anything else
      // doubles from the interval, so one 5xx does not end a release burst.
      const long = outcome.kind === 'blocked' || outcome.kind === 'operator_fault'
      const retryAfter = outcome.kind === 'rate_limited' ? outcome.retryAfterMs : 0
      return { nextAt: now + (long ? reading.backoffMs : backoffAfter(failures, gap, retryAfter)), pushed: 0, changed: true }
    }
    this.#answer = { at: now, slots: outcome.value }
    // Only a failure they were told of is told to have passed.
    if (pace.failing && pace.failing.told !== false) await this.#tellAll(subject, subscribers, null)
    const seen = await this.#store.seen()
    const keys = outcome.value.map(slotKey)
    const pushed = await this.#deliver(subject, subscribers, outcome.value, newSlots(seen, outcome.value), now)
    // Written after the calls: a run that dies before them delivers the same slots again.
    const changed = !sameKeys(seen, keys)
    if (changed) await this.#store.setSeen(keys)
    return {
      nextAt: nextPollAt(
        subscribers.map((s) => s.plan),
        now,
      ),
      pushed,
      changed,
    }
  }

  /** The service's own call, or the call of the user's paired device for that user's objects (issue 17). */
  async #find(subject: Subject, now: number): Promise<Outcome<Slot[]>> {
    if (!subject.via) return this.#platform.findSlots(subject.venueDay)
    const id = `find:${availabilityName(subject.venueDay)}:${now}`
    const answer = await deviceObject(this.env, subject.via).perform(id, { op: 'find', query: subject.venueDay })
    return (answer as Outcome<Slot[]> | null) ?? { kind: 'unavailable', detail: 'the paired device did not answer' }
  }

  /** Calls each subscriber with its matching slots; drops those that no longer watch this venue-day. */
  async #deliver(subject: Subject, subscribers: Subscriber[], current: Slot[], fresh: Slot[], checkedAt: number): Promise<number> {
    const deliveries = deliveriesFor(subscribers, current, fresh)
    const replies = await this.#call(
      deliveries.map((d) => d.subscriber),
      (s) => ({ kind: 'slots_seen', ...subject, checkedAt, slots: deliveries.find((d) => d.subscriber === s)?.slots ?? [] }),
    )
    const heard = (r: (typeof replies)[number]) => r.reply?.watching === true && !r.reply.redeliver
    this.#store.prime(
      replies.filter((r) => heard(r) && !r.subscriber.primed).map((r) => r.subscriber),
      true,
    )
    // A call that failed, or a subscriber that could not act yet, hears about the slots again next time.
    this.#store.prime(
      replies.filter((r) => !heard(r) && r.reply?.watching !== false && r.subscriber.primed).map((r) => r.subscriber),
      false,
    )
    return deliveries.length
  }

  /** Tells every subscriber that checks fail (problem) or work again (null). */
  async #tellAll(subject: Subject, subscribers: Subscriber[], problem: CheckProblem | null): Promise<void> {
    await this.#call(subscribers, () => ({ kind: 'checks', ...subject, problem }))
  }

  async #call(subscribers: Subscriber[], event: (s: Subscriber) => Heard) {
    const replies: { subscriber: Subscriber; reply: { watching?: boolean; redeliver?: boolean } | null }[] = []
    const queue = [...subscribers]
    const lane = async () => {
      for (let s = queue.shift(); s; s = queue.shift()) {
        const reply = await requestObject(this.env, s.requestId)
          .hear(event(s))
          .catch((err: unknown) => {
            console.error('subscriber call failed', s.requestId, err instanceof Error ? err.message : String(err))
            return null
          })
        replies.push({ subscriber: s, reply })
      }
    }
    await Promise.all(Array.from({ length: Math.min(PUSH_CONCURRENCY, subscribers.length) }, lane))
    this.#store.drop(replies.filter((r) => r.reply?.watching === false).map((r) => r.subscriber))
    return replies
  }
}
