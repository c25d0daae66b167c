// The tables a request's alerts listed, for the request page and the home page: each digest groups
// one poll's tables by restaurant and date; over many polls the same restaurant-date comes back,
// so they are merged into one group per restaurant-date, soonest first, and only tables still
// ahead are kept (a dinner that has begun is no table to book). The summary is the glance: how
// many, the soonest, and when the last was found. Alerts without tables (approval needed,
// expiring, booked, health) stay a list of their own.
import type { AlertGroup, AlertTable } from '../db/alert-groups'
import { instantOf } from '../lib/zoned-time'

interface FoundTable extends AlertTable {
  /** When the newest alert listing this table was sent. */
  alertedAt: number
}

export interface FoundGroup {
  restaurant: string
  venueId: number
  /** The venue-local date, "2026-12-05". */
  date: string
  /** The venue's zone. */
  timeZone: string
  /** The newest alert that listed a table of this restaurant-date. */
  lastAlertedAt: number
  /** By time, each (time, seating) once, as the newest alert listed it. */
  tables: FoundTable[]
}

/** What a request found, at a glance: "36 tables found · soonest Wed, Dec 2 · 7:00 PM ET". */
export interface FoundSummary {
  count: number
  soonest: { restaurant: string; date: string; time: string; timeZone: string; link: string } | null
  /** When the newest alert with a table still ahead was sent. */
  lastFoundAt: number | null
}

/** An alert with tables, as the inbox keeps it. */
export interface TableAlert {
  id: number
  createdAt: number
  groups: AlertGroup[] | null
}

export interface FoundTables {
  /** Soonest first. */
  groups: FoundGroup[]
  summary: FoundSummary
}

/**
 * Merges a request's table alerts (any order) by restaurant-date; the tables of every digest once
 * each, those still ahead of `now` in the venue's zone (`timeZone` for digests that did not keep theirs).
 */
export function foundTablesOf(alerts: readonly TableAlert[], options: { now: number; timeZone: string }): FoundTables {
  const newestFirst = [...alerts].sort((a, b) => b.createdAt - a.createdAt || b.id - a.id)
  const groups = new Map<string, FoundGroup & { byKey: Map<string, FoundTable> }>()
  for (const alert of newestFirst) {
    for (const g of alert.groups ?? []) {
      const timeZone = g.timeZone ?? options.timeZone
      const ahead = g.tables.filter((t) => instantOf(g.date, t.time, timeZone) > options.now)
      if (ahead.length === 0) continue
      const key = `${g.venueId}|${g.date}`
      const group = groups.get(key) ?? {
        restaurant: g.restaurant,
        venueId: g.venueId,
        date: g.date,
        timeZone,
        lastAlertedAt: alert.createdAt,
        tables: [],
        byKey: new Map<string, FoundTable>(),
      }
      for (const t of ahead) {
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
  const startOf = (g: FoundGroup) => instantOf(g.date, g.tables[0]?.time ?? '00:00', g.timeZone)
  merged.sort((a, b) => startOf(a) - startOf(b) || a.restaurant.localeCompare(b.restaurant))
  return { groups: merged, summary: summaryOf(merged) }
}

function summaryOf(groups: FoundGroup[]): FoundSummary {
  const first = groups[0]
  const table = first?.tables[0]
  return {
    count: groups.reduce((n, g) => n + g.tables.length, 0),
    soonest:
      first && table
        ? { restaurant: first.restaurant, date: first.date, time: table.time, timeZone: first.timeZone, link: table.link }
        : null,
    lastFoundAt: groups.length > 0 ? Math.max(...groups.map((g) => g.lastAlertedAt)) : null,
  }
}
