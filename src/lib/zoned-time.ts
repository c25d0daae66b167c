// Wall-clock time in an IANA zone ⇄ instants, using the runtime's Intl (workerd ships ICU).
// Small on purpose: the service only needs "today in zone", "date + HH:MM in zone → ms",
// and the reverse.

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
      second: '2-digit',
    })
    formatters.set(timeZone, f)
  }
  return f
}

export function isValidTimeZone(name: string): boolean {
  // Only region names ("America/New_York") and UTC; legacy names like "EST5EDT" are not what
  // restaurant search hands out.
  if (!/^(?:[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)+|UTC|Etc\/UTC)$/.test(name)) return false
  try {
    formatter(name)
    return true
  } catch {
    return false
  }
}

interface WallClock {
  date: string // YYYY-MM-DD
  time: string // HH:MM
  seconds: number
}

export function wallClockAt(ms: number, timeZone: string): WallClock {
  const parts: Record<string, string> = {}
  for (const p of formatter(timeZone).formatToParts(new Date(ms))) parts[p.type] = p.value
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    time: `${parts.hour}:${parts.minute}`,
    seconds: Number(parts.second),
  }
}

export function todayIn(timeZone: string, now: number): string {
  return wallClockAt(now, timeZone).date
}

/** The instant at which the wall clock in `timeZone` shows `date` `time` (HH:MM[:SS]). */
export function instantOf(date: string, time: string, timeZone: string): number {
  const [h = 0, m = 0, s = 0] = time.split(':').map(Number)
  const asUtc = Date.parse(`${date}T00:00:00Z`) + ((h * 60 + m) * 60 + s) * 1000
  // Two passes settle the zone offset, DST transitions included.
  let guess = asUtc - offsetAt(asUtc, timeZone)
  guess = asUtc - offsetAt(guess, timeZone)
  return guess
}

function offsetAt(ms: number, timeZone: string): number {
  const w = wallClockAt(ms, timeZone)
  const shown = Date.parse(`${w.date}T${w.time}:${String(w.seconds).padStart(2, '0')}Z`)
  return shown - Math.floor(ms / 1000) * 1000
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}
