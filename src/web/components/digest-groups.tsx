// A digest's tables, grouped by restaurant and date: each table a link that opens that slot
// on the platform (the inbox shows the same digest the email and the webhook carry). The request
// page shows every alert's tables this way too, merged per restaurant-date (found-tables.ts),
// with the venue's zone and when each group was last alerted.

import type { AlertGroup } from '../../alerts/inbox'
import { formatCalendarDate, formatClock, formatInstant, formatLocalClock } from '../../html/format'

const platformLink = (link: string) => (link.startsWith('https://resy.com/') ? link : null)

export interface DigestGroupsProps {
  groups: (AlertGroup & { lastAlertedAt?: number })[]
  /** The venues' zone, named after each time, for groups that do not carry their own (older digests). */
  timeZone?: string
}

export function DigestGroups(props: DigestGroupsProps) {
  const { timeZone } = props
  return (
    <div class="digest">
      {props.groups.map((group) => (
        <section class="digest-group">
          <h3 class="digest-head">
            {group.restaurant} · {formatCalendarDate(group.date)}
          </h3>
          {group.lastAlertedAt !== undefined && timeZone ? (
            <p class="muted">Last alerted {formatInstant(group.lastAlertedAt, timeZone)}</p>
          ) : null}
          <ul class="digest-tables">
            {group.tables.map((table) => {
              const zone = group.timeZone ?? timeZone
              const clock = zone ? formatLocalClock(group.date, table.time, zone) : formatClock(table.time)
              const words = [clock, table.seating, table.fee].filter(Boolean).join(' · ')
              const link = platformLink(table.link)
              return (
                <li>
                  {link ? (
                    <a href={link} rel="noopener noreferrer" target="_blank">
                      {words}
                    </a>
                  ) : (
                    words
                  )}
                  {table.note ? <span class="muted"> — not booked automatically: {table.note}</span> : null}
                </li>
              )
            })}
          </ul>
        </section>
      ))}
    </div>
  )
}
