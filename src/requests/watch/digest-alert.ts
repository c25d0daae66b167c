// The words of a digest: every table of a poll, grouped by restaurant and date, each with its
// time, seating, fee or deposit, and a link that opens that slot on the platform. The inbox,
// the email and the webhook carry this same alert.
import type { Alert } from '../../notifications/notify'
import type { AlertGroup } from '../../notifications/webhook-body'
import { venueDayUrl } from '../../platform/web-pages'
import type { Recipient } from '../events'
import { tableWhen } from './alert-time'
import { type DigestTable, digestKey, restaurantDate } from './digest'

/** Where a table is booked on the platform's web site: its venue's page on that day for that party. */
export function slotLink(table: Pick<DigestTable, 'venuePage' | 'venueId' | 'day'>, partySize: number): string {
  return venueDayUrl(table.venuePage, table.venueId, table.day, partySize)
}

export function digestGroups(tables: readonly DigestTable[], partySize: number, timeZone?: string): AlertGroup[] {
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

export function digestAlert(to: Recipient, tables: DigestTable[], baseUrl: string): Alert {
  const groups = digestGroups(tables, to.partySize, to.timeZone)
  const restaurants = new Set(tables.map((t) => t.venueId)).size
  const dates = new Set(tables.map((t) => t.day)).size
  const [only] = tables
  const title =
    tables.length === 1 && only
      ? `Table open: ${only.venueName}, ${tableWhen(only.day, only.time, to.timeZone)}`
      : `${plural(tables.length, 'table', 'tables')} open at ${plural(restaurants, 'restaurant', 'restaurants')} on ${plural(dates, 'date', 'dates')}`
  const lines = groups.map((g) => {
    const head = `${g.restaurant} · ${g.tables[0]?.when.split(' · ')[0] ?? g.date}`
    const rows = g.tables.map((t) => {
      const words = [t.when.split(' · ')[1] ?? t.time, t.seating, t.fee].filter(Boolean).join(' · ')
      return `- ${words}: ${t.link}${t.note ? `\n  Not booked automatically: ${t.note}.` : ''}`
    })
    return [head, ...rows].join('\n')
  })
  const skippedOnly = tables.every((t) => t.note !== null)
  return {
    userId: to.userId,
    requestId: to.requestId,
    dedupeKey: digestKey(to.requestId, tables),
    kind: skippedOnly ? 'booking_skipped' : 'table_found',
    title,
    body: `For ${to.partySize}:\n\n${lines.join('\n\n')}\n\nBook on the platform before someone else does.`,
    link: tables.length === 1 && only ? slotLink(only, to.partySize) : `${baseUrl}/requests/${to.requestId}`,
    groups,
  }
}
