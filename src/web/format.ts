// How pages write times. Users have no stored time zone, so instants are shown in UTC and say so.

const dateTime = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
})

const dateOnly = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' })

export function formatDateTime(ms: number): string {
  return `${dateTime.format(new Date(ms))} UTC`
}

export function formatDate(ms: number): string {
  return dateOnly.format(new Date(ms))
}

export function isoDateTime(ms: number): string {
  return new Date(ms).toISOString()
}
