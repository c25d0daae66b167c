// A table alert in the inbox: by restaurant, then date; each date shows its best few
// times as buttons and "+N more", which opens every time of that date. The counts are the true
// ones: tables the alert counted beyond its listing limit are named, with the platform's page
// that lists them. There is no public link to one time on the platform (src/platform/web-pages.ts),
// so each time opens the venue's page on that date for the party.

import type { AlertGroup } from '../../alerts/inbox'
import { bestOf } from '../../alerts/notice-view'
import { formatCalendarDate, formatClock, formatLocalClock } from '../../html/format'

/** Times shown per restaurant-date before "+N more" (as in the email: alerts/digest.ts BEST_PER_DAY). */
const BEST = 3
/** Dates shown per restaurant before the rest fold under "+N more dates". */
const DATES_SHOWN = 3

const platformLink = (link: string) => (link.startsWith('https://resy.com/') ? link : null)

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

const countOf = (g: AlertGroup) => g.tables.length + (g.more ?? 0)

function TimeLink(props: { table: AlertGroup['tables'][number]; group: AlertGroup; button: boolean }) {
  const { table, group } = props
  const clock = group.timeZone ? formatLocalClock(group.date, table.time, group.timeZone) : formatClock(table.time)
  const words = [clock, table.seating, table.fee].filter(Boolean).join(' · ')
  const link = platformLink(table.link)
  const cls = props.button ? 'time-button' : undefined
  return link ? (
    <a class={cls} href={link} rel="noopener noreferrer" target="_blank">
      {words}
    </a>
  ) : (
    <span class={cls}>{words}</span>
  )
}

function DateRow(props: { group: AlertGroup }) {
  const { group } = props
  const { best, more } = bestOf(group, BEST)
  const notes = best.filter((t) => t.note)
  return (
    <li class="digest-date">
      <span class="digest-day">
        {formatCalendarDate(group.date)} <span class="muted">· {plural(countOf(group), 'table', 'tables')}</span>
      </span>
      <span class="time-buttons">
        {best.map((t) => (
          <TimeLink table={t} group={group} button />
        ))}
      </span>
      {notes.map((t) => (
        <p class="muted digest-note">
          {t.when.split(' · ')[1] ?? formatClock(t.time)} was not booked automatically: {t.note}
        </p>
      ))}
      {more > 0 ? (
        <details class="digest-more">
          <summary>+{more} more</summary>
          <ul class="digest-tables">
            {group.tables.map((t) => (
              <li>
                <TimeLink table={t} group={group} button={false} />
                {t.note ? <span class="muted"> — not booked automatically: {t.note}</span> : null}
              </li>
            ))}
          </ul>
          {group.more ? (
            <p class="muted">
              And {plural(group.more, 'more table', 'more tables')} this alert counted but does not list:{' '}
              {platformLink(group.tables[0]?.link ?? '') ? (
                <a href={group.tables[0]?.link} rel="noopener noreferrer" target="_blank">
                  see every time on the platform
                </a>
              ) : (
                'see every time on the platform'
              )}
              .
            </p>
          ) : null}
        </details>
      ) : null}
    </li>
  )
}

/** The alert's groups by restaurant (in the alert's order), each with its dates. */
function byRestaurant(groups: readonly AlertGroup[]): AlertGroup[][] {
  const out = new Map<number, AlertGroup[]>()
  for (const g of groups) out.set(g.venueId, [...(out.get(g.venueId) ?? []), g])
  return [...out.values()]
}

export function AlertDigest(props: { groups: AlertGroup[] }) {
  return (
    <div class="digest">
      {byRestaurant(props.groups).map((dates) => {
        const shown = dates.slice(0, DATES_SHOWN)
        const folded = dates.slice(DATES_SHOWN)
        const total = dates.reduce((n, g) => n + countOf(g), 0)
        return (
          <section class="digest-group">
            <h3 class="digest-head">
              {dates[0]?.restaurant} <span class="muted">· {plural(total, 'table', 'tables')}</span>
            </h3>
            <ul class="digest-dates">
              {shown.map((g) => (
                <DateRow group={g} />
              ))}
            </ul>
            {folded.length > 0 ? (
              <details class="digest-more">
                <summary>+{plural(folded.length, 'more date', 'more dates')}</summary>
                <ul class="digest-dates">
                  {folded.map((g) => (
                    <DateRow group={g} />
                  ))}
                </ul>
              </details>
            ) : null}
          </section>
        )
      })}
    </div>
  )
}
