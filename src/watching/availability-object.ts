// One Durable Object per (venue, day, party size). Requests subscribe to it while they watch;
// it owns the alarm that asks the platform (once per interval: the fastest any subscriber's plan
// needs, release bursts included), works out what changed, and calls only the subscribers with a
// matching new slot. Availability needs no user token. An idle poll writes nothing but its alarm
// (and, when its find saw no table, the time of that find: the guard cadence counts from it). Before a find, the calendar pre-check and the
// service-wide budget have their say (#round); what follows a check is the pure
// decidePoll (poll-step.ts), carried out by #apply.
import { DurableObject } from 'cloudflare:workers'
import { expectRelease, leaseCalls } from '../budget/budget'
import { tierOfPoll } from '../budget/call-priority'
import { BOOKING_CALLS } from '../budget/call-window'
import type { Outcome, Slot } from '../platform/api'
import { deviceObject, requestObject } from '../runtime/deps'
import { servicePlatform } from '../runtime/platform-health'
import { bursting, type Cadence, intervalAt, nextBurstEdge, nextPollAt, releaseAhead, released } from './cadence'
import { type CalendarView, calendarSettingsFrom, needsCalendar, pollKind } from './calendar-check'
import { deliveriesFor, newSlots, sameKeys } from './deliveries'
import { horizonObject } from './horizon-object'
import { limiterWait } from './limits'
import { slotKey } from './match'
import { availabilityName, availabilityObjectName, type CheckProblem, type Heard } from './news'
import { decidePoll, type PollStep } from './poll-step'
import { startPollTrace, traceCall } from './poll-trace'
import type { Subscription, WatchPlan } from './schedule'
import { type Pace, type Subject, type Subscriber, SubscriberStore } from './subscribers'

/** Calls to subscribers at once; each may book (details, book) before it answers. */
const PUSH_CONCURRENCY = 50
/** When this venue-day last asked /4/find (the calendar pre-check's guard cadence counts from it). */
const LAST_FIND_KEY = 'lastFindAt'

const calendarObject = (env: Cloudflare.Env, venueId: number, partySize: number) =>
  env.CALENDARS.get(env.CALENDARS.idFromName(`${venueId}:${partySize}`))

export class AvailabilityObject extends DurableObject<Cloudflare.Env> {
  #store = new SubscriberStore(this.ctx.storage.sql, this.ctx.storage)
  #platform = servicePlatform(this.env, { callerLeases: true })
  /** The last successful answer, kept in memory: a subscriber arriving meanwhile is primed from it. */
  #answer: { at: number; slots: Slot[] } | null = null

  /** Registers (or replaces) a request's subscription; it hears about the matching slots soon. */
  async subscribe(subject: Subject, subscription: Subscription): Promise<void> {
    const started = Date.now()
    await this.#store.rememberSubject(subject)
    this.#store.put(subscription)
    await this.#watchHorizon(subject, subscription.until)
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
   * local demo control (src/demo/demo-table.ts) just opened a table here. A failing platform
   * keeps its back-off (asking again during a block keeps the block in place).
   */
  async checkNow(): Promise<void> {
    const pace = await this.#store.pace()
    if (pace.failing) return
    await this.#store.setPace({ ...pace, offsetMs: null, checkedAt: await this.#lastChecked() })
    this.#answer = null
    await this.ctx.storage.setAlarm(Date.now())
  }

  /**
   * The venue's horizon object says when this day opens (it learned the rule, or saw the day
   * open just now): the release burst follows, and a burst due earlier than the next check
   * pulls the alarm in.
   */
  async venueRelease(openings: number[] | null): Promise<void> {
    const now = Date.now()
    await this.#store.setVenueRelease(openings)
    const [subject, pace, alarm] = await Promise.all([this.#store.subject(), this.#store.pace(), this.ctx.storage.getAlarm()])
    const subscribers = await this.#live(now)
    if (!subject || subscribers.length === 0 || pace.failing) return
    const plans = subscribers.map((s) => s.plan)
    const edge = bursting(plans, now) ? now : nextBurstEdge(plans, now)
    if (edge === null || (alarm !== null && alarm <= edge)) return
    // Pulling the alarm in breaks "alarm − offset = last check": keep the time as written.
    await this.#store.setPace({ ...pace, offsetMs: null, checkedAt: await this.#lastChecked() })
    await this.ctx.storage.setAlarm(edge)
    await this.#announceRelease(subject, plans, subscribers.length, now, edge)
  }

  /** Tells the venue's horizon object this day is watched (until the subscription ends), and keeps when it opens. */
  async #watchHorizon(subject: Subject, until: number): Promise<void> {
    const { venueId, day } = subject.venueDay
    const name = availabilityObjectName(availabilityName(subject.venueDay), subject.via ?? null)
    // A horizon that fails to answer leaves the subscriptions' own plans (their venue's stated rule).
    const openings = await horizonObject(this.env, venueId)
      .watch(venueId, { name, day, until })
      .catch((err: unknown) => {
        console.error('horizon watch failed', name, err instanceof Error ? err.message : String(err))
        return undefined
      })
    if (openings !== undefined) await this.#store.setVenueRelease(openings)
  }

  /** The live subscribers, each planned with the venue's release instants for this day when its horizon object knows them. */
  async #live(now: number): Promise<Subscriber[]> {
    const live = this.#store.live(now)
    const openings = await this.#store.venueRelease()
    return openings ? live.map((s) => ({ ...s, plan: { ...s.plan, releases: openings } })) : live
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

  /**
   * The cadence this venue-day keeps now — the gap its last check set to the next, the budget's
   * stretch included — and the one its requests planned. Read from the stored pace:
   * no write per poll. Null while failing (it backs off) or before its first check.
   */
  async cadence(): Promise<Cadence> {
    const now = Date.now()
    const pace = await this.#store.pace()
    const plans = (await this.#live(now)).map((s) => s.plan)
    return {
      everyMs: pace.failing ? null : pace.offsetMs,
      plannedMs: plans.length > 0 ? Math.min(...plans.map((p) => intervalAt(p, now))) : null,
    }
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
    const subscribers = await this.#live(now)
    const trace = startPollTrace(this.env, this.ctx.storage.sql, subject ? availabilityName(subject.venueDay) : this.ctx.id.toString())
    if (!subject || subscribers.length === 0) {
      await this.#store.setPace({ offsetMs: null, checkedAt: this.#lastGood(pace, now), failing: null })
      await this.ctx.storage.deleteAlarm()
      trace?.({ ok: true, checked: false, changed: false, nextAt: null, pushed: 0 })
      return
    }
    const plans = subscribers.map((s) => s.plan)
    const gap = Math.min(...plans.map((p) => intervalAt(p, now)))
    const answer = this.#answer
    let nextAt: number
    let pushed = 0
    let changed = false
    let ok = true
    let checked = false
    if (answer && now - answer.at < gap - 50) {
      // Not due: a new subscriber is primed from the answer in memory, the schedule stays.
      pushed = await this.#deliver(subject, subscribers, answer.slots, [], answer.at)
      nextAt = nextPollAt(plans, answer.at)
      if (!pace.failing) await this.#store.setPace({ offsetMs: nextAt - answer.at, checkedAt: null, failing: null })
    } else {
      const isBurst = bursting(plans, now)
      // The venue's cap holds the service's finds together; a paired device's finds leave from the
      // user's own network, so each user's device has a cap of its own.
      const venueCap = subject.via
        ? (`venue:${subject.venueDay.venueId}@${subject.via}` as const)
        : (`venue:${subject.venueDay.venueId}` as const)
      const wait = isBurst ? await limiterWait(this.env, venueCap) : 0
      const round = wait > 0 ? { kind: 'wait' as const, waitMs: wait } : await this.#round(subject, isBurst, released(plans, now), gap, now)
      if (round.kind === 'wait') {
        // The venue's cap or the service-wide budget has no call for this venue-day now: its
        // cadence stretches, but never past the moment a release burst starts or its instant comes.
        const retryAt = Math.min(now + round.waitMs, nextBurstEdge(plans, now) ?? Number.POSITIVE_INFINITY)
        await this.ctx.storage.setAlarm(retryAt)
        await this.#announceRelease(subject, plans, subscribers.length, now, retryAt)
        trace?.({ ok: true, checked: false, changed: false, nextAt: retryAt, pushed: 0 })
        return
      }
      const outcome = round.kind === 'skip' ? ({ kind: 'calendar_none' } as const) : await this.#find(subject, now)
      if (round.kind === 'find' && outcome.kind === 'ok' && outcome.value.length === 0) await this.#rememberFind(now)
      const step = decidePoll(pace, subscribers, outcome, now, { lastGood: this.#lastGood(pace, now), stretch: round.stretch })
      ;({ nextAt, pushed, changed } = await this.#apply(subject, subscribers, step, now))
      ok = outcome.kind === 'ok' || outcome.kind === 'calendar_none'
      checked = true
    }
    // A request that subscribed while this run waited is primed right away.
    const delivered = new Set(subscribers.map((s) => `${s.requestId}:${s.version}`))
    if (this.#store.all().some((s) => !delivered.has(`${s.requestId}:${s.version}`))) nextAt = Math.min(nextAt, Date.now())
    await this.ctx.storage.setAlarm(nextAt)
    await this.#announceRelease(subject, plans, subscribers.length, now, nextAt)
    trace?.({ ok, checked, changed, nextAt, pushed })
  }

  /**
   * When the next run leads into a release burst, the budget hears of it in advance, so that it
   * can keep the window's room for the instant (budget/call-window.ts): its find and, should
   * each subscriber book, a booking's calls. A paired device's calls are not the cloud's.
   */
  async #announceRelease(subject: Subject, plans: WatchPlan[], subscribers: number, now: number, alarmAt: number): Promise<void> {
    const at = subject.via ? null : releaseAhead(plans, now, alarmAt)
    if (at !== null) await expectRelease(this.env, { key: availabilityName(subject.venueDay), at, calls: 1 + BOOKING_CALLS * subscribers })
  }

  /**
   * This round's plan: ask the calendar first where that can spare a find (calendar-check.ts),
   * and lease the cloud's calls from the service-wide budget (budget.ts). A paired device's calls
   * are not the cloud's: no calendar, no lease.
   */
  async #round(
    subject: Subject,
    isBurst: boolean,
    isReleased: boolean,
    gap: number,
    now: number,
  ): Promise<{ kind: 'find' | 'skip'; stretch: number } | { kind: 'wait'; waitMs: number }> {
    if (subject.via) return { kind: 'find', stretch: 1 }
    const { venueId, day, partySize } = subject.venueDay
    const tier = tierOfPoll(isReleased, Date.parse(`${day}T12:00:00Z`), now)
    const situation = {
      settings: calendarSettingsFrom(this.env),
      bursting: isBurst,
      viaDevice: false,
      sawTables: (await this.#store.seen()).length > 0,
      lastFindAt: (await this.ctx.storage.get<number>(LAST_FIND_KEY)) ?? null,
      now,
    }
    let calendar: CalendarView | null = null
    if (needsCalendar(situation)) {
      const ask = { venueId, partySize, day, tier, intervalMs: gap, maxAgeMs: Math.max(1000, gap - 1000) }
      const reply = await calendarObject(this.env, venueId, partySize)
        .statusOf(ask)
        .catch((): CalendarView => ({ kind: 'failed' }))
      if (reply.kind === 'wait') return reply
      calendar = reply
    }
    const kind = pollKind({ ...situation, calendar })
    if (kind.kind === 'skip') return { kind: 'skip', stretch: 1 }
    const lease = await leaseCalls(this.env, { tier, cost: 1, key: availabilityName(subject.venueDay), intervalMs: gap })
    return lease.waitMs > 0 ? { kind: 'wait', waitMs: lease.waitMs } : { kind: 'find', stretch: lease.stretch }
  }

  /**
   * When a find saw no tables: the guard cadence counts from it (calendar-check.ts). A find that
   * saw tables writes nothing here (while tables are seen, every round is a find and the guard is
   * not read), so an idle poll of a venue-day with tables writes only its alarm; an idle skip writes nothing.
   */
  async #rememberFind(now: number): Promise<void> {
    await this.ctx.storage.put(LAST_FIND_KEY, now)
  }

  /** Carries out the pure step (poll-step.ts): tell, deliver, remember, store the pace. */
  async #apply(subject: Subject, subscribers: Subscriber[], step: PollStep, now: number) {
    if (step.tell) await this.#tellAll(subject, subscribers, step.tell.problem)
    let pushed = 0
    let changed = step.slots === null && step.pace.failing !== null
    if (step.slots !== null) {
      this.#answer = { at: now, slots: step.slots }
      const seen = await this.#store.seen()
      const keys = step.slots.map(slotKey)
      pushed = await this.#deliver(subject, subscribers, step.slots, newSlots(seen, step.slots), now)
      // Written after the calls: a run that dies before them delivers the same slots again.
      changed = !sameKeys(seen, keys)
      if (changed) await this.#store.setSeen(keys)
    } else if (step.pace.failing === null) {
      // The calendar's "nothing open", as the last find saw (calendar-check.ts): the answer stands, checked now.
      this.#answer = { at: now, slots: [] }
    }
    await this.#store.setPace(step.pace)
    return { nextAt: step.nextAt, pushed, changed }
  }

  /** The service's own call, or the call of the user's paired device for that user's objects. */
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
