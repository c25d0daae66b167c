// The clock release rules are read on: a venue's wall clock (its zone), and the instants its
// days open. Pure. Everywhere but the benchmark's release contest this is the real clock. The
// contest watches several consecutive release "days" in an hour, so the sandbox platform and the
// service it runs agree on a compressed clock (RELEASE_CLOCK = "compressed:<epoch ms>:<real
// seconds per day>"): from the epoch, the platform's wall clock runs that many times faster than
// the real one. Only release learning and release instants read it; requests, expiry and alerts
// keep the real clock. Production never sets it (scripts/deploy-check.mjs refuses it).
import { instantOf as realInstantOf, wallClockAt } from '../lib/zoned-time'

const DAY_SECONDS = 86_400

export interface ReleaseClock {
  /** The venue's local date and second of that day (0 … 86,399) at the instant `ms`. */
  wallAt(ms: number, zone: string): { date: string; secondOfDay: number }
  /** The instant at which the venue's clock shows `date` and `secondOfDay` (may pass 86,400: the next day). */
  instantOf(date: string, secondOfDay: number, zone: string): number
  /** How many of the venue's seconds pass in one real second (1, or more when compressed). */
  readonly speed: number
}

const hms = (secondOfDay: number) => {
  const s = Math.max(0, Math.round(secondOfDay))
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`
}

function wallOf(ms: number, zone: string) {
  const w = wallClockAt(ms, zone)
  const [h = 0, m = 0] = w.time.split(':').map(Number)
  return { date: w.date, secondOfDay: h * 3600 + m * 60 + w.seconds + (((ms % 1000) + 1000) % 1000) / 1000 }
}

function instantOfSecond(date: string, secondOfDay: number, zone: string): number {
  const days = Math.floor(secondOfDay / DAY_SECONDS)
  const rest = secondOfDay - days * DAY_SECONDS
  const day = new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_SECONDS * 1000).toISOString().slice(0, 10)
  const whole = Math.floor(rest)
  return realInstantOf(day, hms(whole), zone) + Math.round((rest - whole) * 1000)
}

export const REAL_CLOCK: ReleaseClock = {
  wallAt: wallOf,
  instantOf: instantOfSecond,
  speed: 1,
}

/** From `epoch` on, a venue's day lasts `realSecondsPerDay` real seconds. */
export function compressedClock(epoch: number, realSecondsPerDay: number): ReleaseClock {
  const speed = DAY_SECONDS / realSecondsPerDay
  const toPlatform = (ms: number) => epoch + (ms - epoch) * speed
  const toReal = (ms: number) => epoch + (ms - epoch) / speed
  return {
    wallAt: (ms, zone) => wallOf(toPlatform(ms), zone),
    instantOf: (date, secondOfDay, zone) => Math.round(toReal(instantOfSecond(date, secondOfDay, zone))),
    speed,
  }
}

/** RELEASE_CLOCK, or the real clock when it is unset or unreadable. */
export function releaseClockFrom(env: { RELEASE_CLOCK?: string }): ReleaseClock {
  const m = /^compressed:(\d+):(\d+(?:\.\d+)?)$/.exec(env.RELEASE_CLOCK ?? '')
  if (!m) return REAL_CLOCK
  const seconds = Number(m[2])
  return seconds >= 60 && seconds < DAY_SECONDS ? compressedClock(Number(m[1]), seconds) : REAL_CLOCK
}

/** HH:MM of a second of the day (the contract's `time_of_day`), rounded to the minute below. */
export const hhmmOf = (secondOfDay: number) => hms(secondOfDay).slice(0, 5)

/** A rule's time ("HH:MM" or "HH:MM:SS") as a second of the day. */
export function secondOfDayOf(time: string): number {
  const [h = 0, m = 0, s = 0] = time.split(':').map(Number)
  return h * 3600 + m * 60 + s
}
