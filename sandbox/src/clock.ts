// Venue-local wall-clock time ⇄ instants for the sandbox platform. The sandbox keeps its own
// implementation rather than importing the service's (src/lib/zoned-time.ts): the sandbox
// stands in for the real platform, so a bug in the service's time arithmetic must show up
// as a disagreement in the tests, not be mirrored on both sides. This one reads the zone's
// UTC offset from Intl's `longOffset` name ("GMT-05:00") instead of comparing wall clocks.

const offsetFormats = new Map<string, Intl.DateTimeFormat>()
const dayFormats = new Map<string, Intl.DateTimeFormat>()

function cached(map: Map<string, Intl.DateTimeFormat>, zone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  let format = map.get(zone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, ...options })
    map.set(zone, format)
  }
  return format
}

/** The zone's offset from UTC at `ms`, in ms (negative west of Greenwich). */
function offsetMs(ms: number, zone: string): number {
  const name = cached(offsetFormats, zone, { timeZoneName: 'longOffset' })
    .formatToParts(new Date(ms))
    .find((p) => p.type === 'timeZoneName')?.value
  const match = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(name ?? '')
  if (!match) throw new Error(`no UTC offset for ${zone}`)
  if (!match[1]) return 0
  const minutes = Number(match[2]) * 60 + Number(match[3])
  return (match[1] === '-' ? -minutes : minutes) * 60_000
}

/** The instant at which clocks in `zone` show `day` `time` (HH:MM). */
export function instantOf(day: string, time: string, zone: string): number {
  const naive = Date.parse(`${day}T${time.length === 5 ? `${time}:00` : time}Z`)
  // The offset at the naive instant is right except within an offset change; one more
  // look-up at the first guess settles it.
  const first = naive - offsetMs(naive, zone)
  return naive - offsetMs(first, zone)
}

/** The calendar day (YYYY-MM-DD) in `zone` at `now`. */
export function todayIn(zone: string, now: number): string {
  const parts = cached(dayFormats, zone, { year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(now))
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? ''
  return `${part('year')}-${part('month')}-${part('day')}`
}

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
}
