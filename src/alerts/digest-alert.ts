// The words of a digest: every table of a poll, grouped by restaurant, then date. Each group shows
// its best few times and "+N more"; the counts are the true ones (tables beyond the listing limit
// are counted, alerts/digest.ts). The subject names the restaurant(s) and the first date. The
// inbox, the email and the webhook carry this same alert.
//
// Links: the platform has no public link to one time of day (src/platform/web-pages.ts), so every
// time of a restaurant-date opens the venue's page on that date for the party, where it is listed.
import { reconnectUrl } from '../core/reconnect-link'
import { type AlertGroup, bestOf } from '../db/alert-groups'
import type { Alert } from '../notifications/notify'
import { venueDayUrl } from '../platform/web-pages'
import { dayWhen, tableWhen } from './alert-time'
import { BEST_PER_DAY, digestKey, restaurantDate, tablesTold } from './digest'
import type { DigestTable, Recipient } from './notice'

/** Where a table is booked on the platform's web site: its venue's page on that day for that party. */
function slotLink(table: Pick<DigestTable, 'venuePage' | 'venueId' | 'day'>, partySize: number): string {
  return venueDayUrl(table.venuePage, table.venueId, table.day, partySize)
}

/** By restaurant, then date, then time; each group with the count of tables it does not list. */
function digestGroups(
  tables: readonly DigestTable[],
  partySize: number,
  timeZone?: string,
  more: Record<string, number> = {},
): AlertGroup[] {
  const groups = new Map<string, AlertGroup>()
  const sorted = [...tables].sort(
    (a, b) => a.venueName.localeCompare(b.venueName) || a.day.localeCompare(b.day) || a.time.localeCompare(b.time),
  )
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
    })
    groups.set(key, group)
  }
  return [...groups.values()]
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/** "Tables at Pomelo Garden and 2 more · Sat, Dec 5": the restaurant of the first table first. */
function digestSubject(tables: readonly DigestTable[], total: number, timeZone?: string): string {
  const first = [...tables].sort((a, b) => a.day.localeCompare(b.day) || a.time.localeCompare(b.time))[0]
  if (!first) return 'Tables open'
  if (total === 1) return `Table at ${first.venueName} · ${tableWhen(first.day, first.time, timeZone)}`
  const others = [...new Set(tables.map((t) => t.venueName))].filter((name) => name !== first.venueName)
  const where =
    others.length === 0
      ? first.venueName
      : others.length === 1
        ? `${first.venueName} and ${others[0]}`
        : `${first.venueName} and ${others.length} more`
  return `Tables at ${where} · ${dayWhen(first.day)}`
}

/** Groups an email lists before pointing at the request page for the rest. */
const MAIL_GROUPS = 10

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
  const groups = digestGroups(tables, to.partySize, to.timeZone, more)
  const total = tablesTold(tables, more)
  const restaurants = new Set(tables.map((t) => t.venueId)).size
  const dates = new Set(tables.map((t) => t.day)).size
  const requestPage = `${baseUrl}/requests/${to.requestId}`
  const [only] = groups
  const summary = `${plural(total, 'table', 'tables')} for ${to.partySize} at ${plural(restaurants, 'restaurant', 'restaurants')} on ${plural(dates, 'date', 'dates')}.`
  const listed = groups.slice(0, MAIL_GROUPS)
  const unlisted = groups.slice(MAIL_GROUPS).reduce((n, g) => n + g.tables.length + (g.more ?? 0), 0)
  const waitsForReconnect = tables.some((t) => t.waitsFor === 'reconnect')
  const body = [
    `${summary} Book on the platform before someone else does.`,
    ...(waitsForReconnect
      ? [`Tablewatch can book again once you reconnect your platform account (one short sign-in): ${reconnectUrl(baseUrl)}`]
      : []),
    `Every table, with its time: ${requestPage}`,
    ...listed.map(groupText),
    ...(unlisted > 0 ? [`And ${plural(unlisted, 'more table', 'more tables')} at the other restaurants and dates: ${requestPage}`] : []),
  ].join('\n\n')
  const skippedOnly = tables.every((t) => t.note !== null)
  return {
    userId: to.userId,
    requestId: to.requestId,
    dedupeKey: digestKey(to.requestId, tables),
    kind: skippedOnly ? 'booking_skipped' : 'table_found',
    title: digestSubject(tables, total, to.timeZone),
    body,
    // The primary action: the one restaurant-date's page on the platform, or the request's page with all of them.
    link: groups.length === 1 && only?.tables[0] ? only.tables[0].link : requestPage,
    groups,
  }
}
