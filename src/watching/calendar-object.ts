// One per (venue, party size): the calendar pre-check's one call per round.
// Every availability object of the venue and party asks it about its own date; the first to ask
// after the answer got older than its round pays one /4/venue/calendar call covering every date
// asked about lately, and the others read that answer. Concurrent asks share one call.
import { DurableObject } from 'cloudflare:workers'
import { leaseCalls } from '../budget/budget'
import type { Tier } from '../budget/call-priority'
import type { CalendarStatus, Outcome, VenueCalendar } from '../platform/api'
import { servicePlatform } from '../runtime/platform-health'
import type { CalendarView } from './calendar-check'
import { horizonObject } from './horizon-object'
import { LEARNING_EVERY_MS } from './horizon-plan'

/** A date asked about is covered by the calls of the next hour (its object asks every round meanwhile). */
const ASKED_FOR_MS = 60 * 60_000
/** The platform's web app asks about a month or two at a time; the sandbox refuses 120 days or more. */
const MAX_RANGE_DAYS = 100

interface CalendarAsk {
  venueId: number
  partySize: number
  day: string
  /** An answer younger than this is read, not asked again (the asker's round, a little less). */
  maxAgeMs: number
  /** The asker's tier and round, for the budget. */
  tier: Tier
  intervalMs: number
}

type CalendarReply = CalendarView | { kind: 'wait'; waitMs: number }

interface Answer {
  at: number
  start: string
  end: string
  outcome: Outcome<VenueCalendar>
}

export class CalendarObject extends DurableObject<Cloudflare.Env> {
  #platform = servicePlatform(this.env, { callerLeases: true })
  #answer: Answer | null = null
  #asking: Promise<Answer | { waitMs: number }> | null = null
  /** Dates asked about, with when. */
  #asked = new Map<string, number>()
  /** The last `last_calendar_day` passed on to the venue's horizon object, and when. */
  #toldHorizon: { lastDay: string; at: number } | null = null

  async statusOf(ask: CalendarAsk): Promise<CalendarReply> {
    const now = Date.now()
    this.#asked.set(ask.day, now)
    for (const [day, at] of this.#asked) if (now - at > ASKED_FOR_MS) this.#asked.delete(day)
    const cached = this.#answer
    const covers = (a: Answer) => a.start <= ask.day && ask.day <= a.end
    if (cached && covers(cached) && now - cached.at < ask.maxAgeMs) return viewOf(cached, ask.day)
    this.#asking ??= this.#ask(ask).finally(() => {
      this.#asking = null
    })
    const got = await this.#asking
    if ('waitMs' in got) return { kind: 'wait', waitMs: got.waitMs }
    // Asked before this date was known: a call that did not cover it is odd for it (find runs).
    return viewOf(got, ask.day)
  }

  async #ask(ask: CalendarAsk): Promise<Answer | { waitMs: number }> {
    const key = `calendar:${ask.venueId}:${ask.partySize}`
    const lease = await leaseCalls(this.env, { tier: ask.tier, cost: 1, key, intervalMs: ask.intervalMs })
    if (lease.waitMs > 0) return { waitMs: lease.waitMs }
    const days = [...this.#asked.keys()].sort()
    const start = days[0] ?? ask.day
    const end = lastWithin(days, start, MAX_RANGE_DAYS) ?? ask.day
    const at = Date.now()
    const outcome = await this.#platform.venueCalendar({ venueId: ask.venueId, partySize: ask.partySize, startDate: start, endDate: end })
    // A failure is kept for the round too: the other dates fall back to find, not to more calendar calls.
    const answer = { at, start, end, outcome }
    this.#answer = answer
    const lastDay = outcome.kind === 'ok' ? outcome.value.lastCalendarDay : null
    if (lastDay) await this.#tellHorizon(ask.venueId, lastDay, at)
    return answer
  }

  /**
   * Every answer shows the venue's horizon: its horizon object hears of a new last day, and of
   * the same one once a minute (a look it need not make itself), at no platform call.
   */
  async #tellHorizon(venueId: number, lastDay: string, sentAt: number): Promise<void> {
    const told = this.#toldHorizon
    if (told?.lastDay === lastDay && sentAt - told.at < LEARNING_EVERY_MS) return
    this.#toldHorizon = { lastDay, at: sentAt }
    await horizonObject(this.env, venueId)
      .observe(venueId, { lastDay, sentAt, answeredAt: Date.now() })
      .catch(() => undefined) // a look missed, nothing lost
  }
}

function viewOf(answer: Answer, day: string): CalendarView {
  if (answer.outcome.kind !== 'ok') return { kind: 'failed' }
  const status: CalendarStatus | undefined = answer.outcome.value.days[day]
  return { kind: 'answered', status }
}

/** The last of the sorted `days` within `maxDays` of `start`. */
function lastWithin(days: string[], start: string, maxDays: number): string | undefined {
  const limit = Date.parse(start) + (maxDays - 1) * 86_400_000
  return days.filter((d) => Date.parse(d) <= limit).at(-1)
}
