// Which dinner a notice is about, in a few plain words: the request's title and
// party, its restaurant(s), its date(s) and its time window, in the venues' zone. Every notice
// names it, so five approval emails never look alike.
import { dayWhen, tableWhen } from './alert-time'
import type { DinnerFacts, Recipient } from './notice'

const list = (names: string[], more: string) => {
  if (names.length <= 2) return names.join(' and ')
  return `${names[0]} and ${names.length - 1} ${more}`
}

/** "Pomelo Garden and Marrow" or "Pomelo Garden and 3 more" (ids without a known name are counted). */
function restaurantsWords(venueIds: readonly number[], names: ReadonlyMap<number, string>): string {
  const known = venueIds.map((id) => names.get(id)).filter((n): n is string => n !== undefined)
  if (known.length === 0) return venueIds.length === 1 ? '1 restaurant' : `${venueIds.length} restaurants`
  const unknown = venueIds.length - known.length
  if (unknown === 0) return list(known, 'more')
  return `${known[0]} and ${venueIds.length - 1} more`
}

/** "Sat, Dec 5", "Sat, Dec 5 or Sun, Dec 6", "Sat, Dec 5 and 13 more dates". */
function datesWords(dates: readonly string[]): string {
  const sorted = [...dates].sort()
  const [first, second] = sorted
  if (!first) return ''
  if (sorted.length === 1) return dayWhen(first)
  if (sorted.length === 2 && second) return `${dayWhen(first)} or ${dayWhen(second)}`
  return `${dayWhen(first)} and ${sorted.length - 1} more dates`
}

/** "7:00 PM to 9:00 PM ET" (or "at 7:00 PM ET" for a window of one time). */
function windowWords(facts: Pick<DinnerFacts, 'dates' | 'earliest' | 'latest'>, timeZone?: string): string {
  const day = [...facts.dates].sort()[0] ?? '2000-01-01'
  const from = tableWhen(day, facts.earliest, timeZone).split(' · ')[1] ?? facts.earliest
  const to = tableWhen(day, facts.latest, timeZone).split(' · ')[1] ?? facts.latest
  if (facts.earliest === facts.latest) return `at ${from}`
  // The zone once, at the end: "7:00 PM to 9:00 PM ET".
  const zone = timeZone ? ` ${to.split(' ').at(-1)}` : ''
  return `${timeZone ? from.split(' ').slice(0, 2).join(' ') : from} to ${to.split(' ').slice(0, 2).join(' ')}${zone}`
}

/** The dinner's name: "Birthday for 6" or "A table for 6". */
export function dinnerName(to: Recipient): string {
  const title = to.dinner?.title?.trim()
  return title ? `${title} for ${to.partySize}` : `A table for ${to.partySize}`
}

/**
 * Everything about the dinner in one line: "Birthday for 6 · Pomelo Garden · Sat, Dec 5 · 7:00 PM to
 * 9:00 PM ET". Without the request's facts (a notice stored before they were kept), the party only.
 */
export function dinnerLine(to: Recipient, names: ReadonlyMap<number, string>): string {
  const d = to.dinner
  if (!d) return dinnerName(to)
  return [dinnerName(to), restaurantsWords(d.venueIds, names), datesWords(d.dates), windowWords(d, to.timeZone)].join(' · ')
}

/** A short form for subjects: "Birthday for 6 at Pomelo Garden · Sat, Dec 5". */
export function dinnerShort(to: Recipient, names: ReadonlyMap<number, string>): string {
  const d = to.dinner
  if (!d) return dinnerName(to)
  return `${dinnerName(to)} at ${restaurantsWords(d.venueIds, names)} · ${datesWords(d.dates)}`
}
