// The tables a request found, for its page: one group per restaurant and date, soonest first, each
// time a button that opens the restaurant's page on the platform on that date (there is no public
// link to one time, src/platform/web-pages.ts), and "Book this table" beside a table the service
// could book (its page states the terms, then one press books it). A date with many times shows the first few and
// folds the rest. Times are the restaurant's, with its zone.
import type { FoundGroup } from '../../alerts/found-tables'
import { formatCalendarDate, formatLocalClock } from '../../html/format'

/** Times shown per restaurant-date before "+N more". */
const SHOWN = 6

const platformLink = (link: string) => (link.startsWith('https://resy.com/') ? link : null)

function TimeButton(props: { table: FoundGroup['tables'][number]; group: FoundGroup }) {
  const { table, group } = props
  const words = [formatLocalClock(group.date, table.time, group.timeZone), table.seating, table.fee].filter(Boolean).join(' · ')
  const link = platformLink(table.link)
  const time = link ? (
    <a class="time-button" href={link} rel="noopener noreferrer" target="_blank">
      {words}
    </a>
  ) : (
    <span class="time-button">{words}</span>
  )
  if (!table.book) return time
  return (
    <>
      {time}{' '}
      <a class="time-button book-button" href={table.book} aria-label={`Book this table: ${words}`}>
        Book this table
      </a>
    </>
  )
}

export function FoundGroups(props: { groups: FoundGroup[] }) {
  return (
    <div class="digest found-groups">
      {props.groups.map((group) => {
        const shown = group.tables.slice(0, SHOWN)
        const rest = group.tables.slice(SHOWN)
        const notes = group.tables.filter((t) => t.note)
        return (
          <section class="digest-group">
            <h3 class="digest-head">
              {group.restaurant} · {formatCalendarDate(group.date)}{' '}
              <span class="muted">
                · {group.tables.length} {group.tables.length === 1 ? 'table' : 'tables'}
              </span>
            </h3>
            <p class="time-buttons">
              {shown.map((t) => (
                <TimeButton table={t} group={group} />
              ))}
            </p>
            {rest.length > 0 ? (
              <details class="digest-more">
                <summary>+{rest.length} more</summary>
                <p class="time-buttons">
                  {rest.map((t) => (
                    <TimeButton table={t} group={group} />
                  ))}
                </p>
              </details>
            ) : null}
            {notes.map((t) => (
              <p class="muted digest-note">
                {formatLocalClock(group.date, t.time, group.timeZone)} was not booked for you: {t.note}
              </p>
            ))}
          </section>
        )
      })}
    </div>
  )
}
