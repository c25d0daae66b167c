// The short name of a time zone at an instant, as every page and alert writes it next to a time.
const formatters = new Map<string, Intl.DateTimeFormat>()

function zonePart(timeZone: string, style: 'shortGeneric' | 'short', ms: number): string {
  const key = `${style}:${timeZone}`
  let f = formatters.get(key)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: style })
    formatters.set(key, f)
  }
  return f.formatToParts(new Date(ms)).find((p) => p.type === 'timeZoneName')?.value ?? timeZone
}

/** "ET", "PT", "CT" where a short generic name exists; otherwise "GMT+1", "UTC". */
export function zoneName(timeZone: string, ms: number): string {
  const generic = zonePart(timeZone, 'shortGeneric', ms)
  if (!generic.includes(' ') && !generic.startsWith('GMT')) return generic
  const short = zonePart(timeZone, 'short', ms)
  return short === 'GMT+0' || short === 'GMT' ? (timeZone === 'UTC' || timeZone === 'Etc/UTC' ? 'UTC' : 'GMT') : short
}
