// "Today" and instants in a given IANA zone, computed independently of the service's own code.

export const DAY_MS = 86_400_000
export const NEW_YORK = 'America/New_York'

const formatters = new Map<string, Intl.DateTimeFormat>()
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
    formatters.set(timeZone, f)
  }
  return f
}

function partsAt(ms: number, timeZone: string): Record<string, string> {
  const parts: Record<string, string> = {}
  for (const p of formatter(timeZone).formatToParts(new Date(ms))) parts[p.type] = p.value
  return parts
}

/** The calendar date in `timeZone` `offsetDays` after today there (negative for the past). */
export function dateIn(timeZone: string, offsetDays = 0): string {
  const p = partsAt(Date.now(), timeZone)
  const d = new Date(`${p.year}-${p.month}-${p.day}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + offsetDays)
  return d.toISOString().slice(0, 10)
}

/** Consecutive dates starting `fromOffset` days after today in `timeZone`. */
export function datesIn(timeZone: string, count: number, fromOffset = 1): string[] {
  return Array.from({ length: count }, (_, i) => dateIn(timeZone, fromOffset + i))
}

/** The instant at which the wall clock in `timeZone` shows `date` at `time` (HH:MM). */
export function instantIn(timeZone: string, date: string, time: string): number {
  const asUtc = Date.parse(`${date}T${time}:00Z`)
  let guess = asUtc
  for (let i = 0; i < 2; i++) {
    const p = partsAt(guess, timeZone)
    const shown = Date.parse(`${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:00Z`)
    guess += asUtc - shown
  }
  return guess
}

/** RFC 3339 with an explicit numeric offset ("+00:00"), the form the contract asks for. */
export function isoWithOffset(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '+00:00')
}

/** An `expires_at` that is `ms` from now. */
export function expiresIn(ms: number): string {
  return isoWithOffset(Date.now() + ms)
}

/**
 * A request's calendar date as the pages write it: "Sat, Nov 28", with the year when it is not
 * this year's ("Sat, Jan 2, 2027"). Written apart from the service's formatter, so a test reads the
 * rule rather than repeating the code; `now` decides "this year".
 */
export function pageDay(day: string, now = Date.now()): string {
  const at = Date.parse(`${day}T12:00:00Z`)
  const sameYear = new Date(at).getUTCFullYear() === new Date(now).getUTCFullYear()
  return new Intl.DateTimeFormat('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    ...(sameYear ? {} : { year: 'numeric' }),
    timeZone: 'UTC',
  }).format(at)
}
