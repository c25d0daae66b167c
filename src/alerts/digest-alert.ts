// The words of a digest: every table of a poll, grouped by restaurant and date, the soonest first.
// Each group shows its best few times and "+N more"; the counts are the true ones (tables beyond
// the listing limit are counted, alerts/digest.ts). The subject names the request and says what
// the alert holds: how many tables, over which dates, and the soonest. Money is per person, as the
// request's limits are. The inbox, the email, push and the webhook carry this same alert.
//
// Links: the platform has no public link to one time of day (src/platform/web-pages.ts), so every
// time of a restaurant-date opens the venue's page on that date for the party, where it is listed.
import { reconnectUrl } from '../core/reconnect-link'
import { type AlertGroup, bestOf } from '../db/alert-groups'
import type { Alert } from '../notifications/notify'
import { venueDayUrl } from '../platform/web-pages'
import { dayWhen, tableWhen } from './alert-time'
import { BEST_PER_DAY, digestKey, restaurantDate, tablesTold } from './digest'
import { bookTableUrl, type DigestTable, type Recipient } from './notice'

/** Where a table is booked on the platform's web site: its venue's page on that day for that party. */
function slotLink(table: Pick<DigestTable, 'venuePage' | 'venueId' | 'day'>, partySize: number): string {
  return venueDayUrl(table.venuePage, table.venueId, table.day, partySize)
}

/** The soonest table first: by date, then time, then restaurant. */
const soonestFirst = (a: DigestTable, b: DigestTable) =>
  a.day.localeCompare(b.day) || a.time.localeCompare(b.time) || a.venueName.localeCompare(b.venueName)

/** One group per restaurant and date, the group with the soonest table first; each with the count of tables it does not list. */
function digestGroups(
  tables: readonly DigestTable[],
  to: Pick<Recipient, 'partySize' | 'timeZone' | 'requestId'>,
  baseUrl: string,
  more: Record<string, number> = {},
): AlertGroup[] {
  const { partySize, timeZone } = to
  const groups = new Map<string, AlertGroup>()
  const sorted = [...tables].sort(soonestFirst)
  for (const t of sorted) {
    const key = restaurantDate(t)
    const group: AlertGroup = groups.get(key) ?? {
      restaurant: t.venueName,
      venueId: t.venueId,
      date: t.day,
      ...(timeZone ? { timeZone } : {}),
      tables: [],
      ...(more[key] ? { more: more[key] } : {}),
    }
    group.tables.push({
      time: t.time,
      when: tableWhen(t.day, t.time, timeZone),
      seating: t.seatingType,
      fee: t.fee,
      note: t.note,
      link: slotLink(t, partySize),
      ...(t.bookable ? { book: bookTableUrl(baseUrl, to.requestId, t.key) } : {}),
    })
    groups.set(key, group)
  }
  return [...groups.values()]
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/** "Dec 4", "Dec 4 to Dec 9", or "Fri, Dec 4" for a single date: the dates an alert's tables span. */
function datesSpan(days: readonly string[]): string {
  const sorted = [...new Set(days)].sort()
  const first = sorted[0]
  const last = sorted.at(-1)
  if (!first || !last) return ''
  return first === last ? dayWhen(first) : `${dayWhen(first)} to ${dayWhen(last)}`
}

/** The request the alert is about: its title, or its party. */
const requestName = (to: Recipient) => to.dinner?.title?.trim() || `Your table for ${to.partySize}`

/**
 * What the alert holds, naming its request: "Lunch with Sam: 2 tables, Fri, Dec 4 · soonest 12:00 PM ET";
 * one table: "Lunch with Sam: a table at Marrow & Smoke, Fri, Dec 4 · 12:00 PM ET".
 */
function digestSubject(to: Recipient, tables: readonly DigestTable[], total: number): string {
  const first = [...tables].sort(soonestFirst)[0]
  const name = requestName(to)
  if (!first) return `${name}: tables open`
  const when = tableWhen(first.day, first.time, to.timeZone)
  if (total === 1) return `${name}: a table at ${first.venueName}, ${when}`
  const span = datesSpan(tables.map((t) => t.day))
  const soonest = new Set(tables.map((t) => t.day)).size === 1 ? (when.split(' · ')[1] ?? when) : when
  return `${name}: ${plural(total, 'table', 'tables')}, ${span} · soonest ${soonest}`
}

/** Groups an email lists before pointing at the request page for the rest. */
const MAIL_GROUPS = 10
/** Tables a push notification lists: a lock screen shows a few lines. */
const PUSH_TABLES = 3

/**
 * The words of a push notification (the title says the rest): the count, the soonest few tables
 * with their fee per person, and that a tap shows them all (the request's page, or the one
 * restaurant-date's page on the platform).
 */
function pushText(summary: string, tables: readonly DigestTable[], total: number, timeZone: string | undefined): string {
  // Each row names its restaurant: the title names the request, not where its tables are.
  const rows = [...tables]
    .sort(soonestFirst)
    .slice(0, PUSH_TABLES)
    .map((t) => [tableWhen(t.day, t.time, timeZone), t.venueName, t.fee].filter(Boolean).join(' · '))
  return [summary, ...rows, ...(total > rows.length ? [`Tap to see all ${total} tables.`] : [])].join('\n')
}

/** One group in plain text: the best times, "+N more", and the link that opens them. */
function groupText(g: AlertGroup): string {
  const { best, more } = bestOf(g, BEST_PER_DAY)
  const count = g.tables.length + (g.more ?? 0)
  const head = `${g.restaurant} · ${dayWhen(g.date)} · ${plural(count, 'table', 'tables')}: ${g.tables[0]?.link ?? ''}`
  const rows = best.map((t) => {
    const words = [t.when.split(' · ')[1] ?? t.time, t.seating, t.fee].filter(Boolean).join(' · ')
    return `  ${words}${t.note ? ` (not booked automatically: ${t.note})` : ''}`
  })
  return [head, ...rows, ...(more > 0 ? [`  +${more} more`] : [])].join('\n')
}

export function digestAlert(to: Recipient, tables: DigestTable[], baseUrl: string, more?: Record<string, number>): Alert {
  const groups = digestGroups(tables, to, baseUrl, more)
  const total = tablesTold(tables, more)
  const restaurants = new Set(tables.map((t) => t.venueId)).size
  const dates = new Set(tables.map((t) => t.day)).size
  const requestPage = `${baseUrl}/requests/${to.requestId}`
  const [only] = groups
  const summary = `${plural(total, 'table', 'tables')} for ${to.partySize} at ${plural(restaurants, 'restaurant', 'restaurants')} on ${plural(dates, 'date', 'dates')}.`
  const soonest = [...tables].sort(soonestFirst)[0]
  // Several tables: the soonest by name, so the first lines say what the alert holds.
  const soonestLine =
    soonest && total > 1
      ? ` The soonest: ${soonest.venueName}, ${tableWhen(soonest.day, soonest.time, to.timeZone)}${soonest.fee ? ` (${soonest.fee})` : ''}.`
      : ''
  const listed = groups.slice(0, MAIL_GROUPS)
  const unlisted = groups.slice(MAIL_GROUPS).reduce((n, g) => n + g.tables.length + (g.more ?? 0), 0)
  const waitsForReconnect = tables.some((t) => t.waitsFor === 'reconnect')
  // One table the service could book: the alert offers it in one press (the page states its terms first).
  const book = total === 1 && only?.tables.length === 1 ? (only.tables[0]?.book ?? null) : null
  const body = [
    book ? `${summary} Book this table in one press: ${book}` : `${summary}${soonestLine} Book on the platform before someone else does.`,
    ...(waitsForReconnect
      ? [`Tablewatch can book again once you reconnect your platform account (one short sign-in): ${reconnectUrl(baseUrl)}`]
      : []),
    `See all ${plural(total, 'table', 'tables')}: ${requestPage}`,
    ...listed.map(groupText),
    ...(unlisted > 0 ? [`And ${plural(unlisted, 'more table', 'more tables')} at the other restaurants and dates: ${requestPage}`] : []),
  ].join('\n\n')
  const skippedOnly = tables.every((t) => t.note !== null)
  return {
    userId: to.userId,
    requestId: to.requestId,
    dedupeKey: digestKey(to.requestId, tables),
    kind: skippedOnly ? 'booking_skipped' : 'table_found',
    title: digestSubject(to, tables, total),
    body,
    short: pushText(summary, tables, total, to.timeZone),
    // The primary action: the one restaurant-date's page on the platform, or the request's page with all of them.
    link: groups.length === 1 && only?.tables[0] ? only.tables[0].link : requestPage,
    groups,
    ...(book ? { book } : {}),
  }
}
