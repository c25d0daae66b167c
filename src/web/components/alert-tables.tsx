// A table alert in the inbox: the soonest few tables of the alert, each a row that opens the
// restaurant's page on the platform on that date (there is no public link to one time,
// src/platform/web-pages.ts), then "See all N tables" on the request's page. Dinners are in the
// restaurant's zone; money per person, as the alert words it.
import type { AlertGroup } from '../../alerts/inbox'
import { formatCalendarDate, formatLocalClock } from '../../html/format'
import { instantOf } from '../../lib/zoned-time'

/** Tables a card lists before "See all". */
const FEW = 4

const platformLink = (link: string) => (link.startsWith('https://resy.com/') ? link : null)

interface Row {
  group: AlertGroup
  table: AlertGroup['tables'][number]
  at: number
}

export function AlertTables(props: { groups: AlertGroup[]; seeAll: string | null }) {
  const rows: Row[] = props.groups
    .flatMap((group) => group.tables.map((table) => ({ group, table, at: instantOf(group.date, table.time, group.timeZone ?? 'UTC') })))
    .sort((a, b) => a.at - b.at || a.group.restaurant.localeCompare(b.group.restaurant))
  const total = props.groups.reduce((n, g) => n + g.tables.length + (g.more ?? 0), 0)
  const several = new Set(props.groups.map((g) => g.venueId)).size > 1
  const shown = rows.slice(0, FEW)
  return (
    <>
      <ul class="alert-tables">
        {shown.map(({ group, table }) => {
          const when = `${formatCalendarDate(group.date)} · ${group.timeZone ? formatLocalClock(group.date, table.time, group.timeZone) : table.time}`
          const what = [table.seating, several ? group.restaurant : null, table.fee].filter(Boolean).join(' · ')
          const link = platformLink(table.link)
          const inner = (
            <>
              <strong>{when}</strong> <span class="alert-table-what">{what}</span>
            </>
          )
          return (
            <li>
              {link ? (
                <a href={link} rel="noopener noreferrer" target="_blank">
                  {inner}
                </a>
              ) : (
                <span>{inner}</span>
              )}
              {table.book ? (
                <a class="time-button book-button" href={table.book} aria-label={`Book this table: ${when}`}>
                  Book this table
                </a>
              ) : null}
              {table.note ? <p class="muted digest-note">Not booked for you: {table.note}</p> : null}
            </li>
          )
        })}
      </ul>
      {props.seeAll && total > shown.length ? (
        <p class="see-all">
          <a href={props.seeAll}>See all {total} tables</a>
        </p>
      ) : null}
    </>
  )
}
