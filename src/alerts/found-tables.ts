// The tables a request's alerts listed, by restaurant and date, for the request page:
// each digest already groups one poll's tables; over many polls the same restaurant-date comes
// back, so the page merges them into one group per restaurant-date instead of one entry per alert.
// Alerts without tables (approval needed, expiring, booked, health) stay a list of their own.
import type { AlertGroup, AlertTable } from '../db/alert-groups'
import type { InboxItem } from './inbox'

interface FoundTable extends AlertTable {
  /** When the newest alert listing this table was sent. */
  alertedAt: number
}

export interface FoundGroup {
  restaurant: string
  venueId: number
  /** The venue-local date, "2026-12-05". */
  date: string
  /** The newest alert that listed a table of this restaurant-date. */
  lastAlertedAt: number
  /** By time, each (time, seating) once, as the newest alert listed it. */
  tables: FoundTable[]
}

export interface RequestAlerts {
  /** Newest alert first; groups of one alert by date, then restaurant. */
  groups: FoundGroup[]
  /** The alerts that list no tables, newest first. */
  notices: InboxItem[]
}

const groupsOf = (alert: InboxItem): AlertGroup[] => alert.groups ?? []

/** Groups a request's alerts (any order) by restaurant-date; the tables of every digest, once each. */
export function foundTablesOf(alerts: readonly InboxItem[]): RequestAlerts {
  const newestFirst = [...alerts].sort((a, b) => b.createdAt - a.createdAt || b.id - a.id)
  const groups = new Map<string, FoundGroup & { byKey: Map<string, FoundTable> }>()
  const notices: InboxItem[] = []
  for (const alert of newestFirst) {
    if (groupsOf(alert).length === 0) {
      notices.push(alert)
      continue
    }
    for (const g of groupsOf(alert)) {
      const key = `${g.venueId}|${g.date}`
      const group = groups.get(key) ?? {
        restaurant: g.restaurant,
        venueId: g.venueId,
        date: g.date,
        lastAlertedAt: alert.createdAt,
        tables: [],
        byKey: new Map<string, FoundTable>(),
      }
      for (const t of g.tables) {
        const tableKey = `${t.time}|${t.seating}`
        // Newest first: a table listed again later keeps the newer listing (its fee, its link).
        if (!group.byKey.has(tableKey)) group.byKey.set(tableKey, { ...t, alertedAt: alert.createdAt })
      }
      groups.set(key, group)
    }
  }
  const merged = [...groups.values()].map(({ byKey, ...group }) => ({
    ...group,
    tables: [...byKey.values()].sort((a, b) => a.time.localeCompare(b.time) || a.seating.localeCompare(b.seating)),
  }))
  merged.sort((a, b) => b.lastAlertedAt - a.lastAlertedAt || a.date.localeCompare(b.date) || a.restaurant.localeCompare(b.restaurant))
  return { groups: merged, notices }
}
