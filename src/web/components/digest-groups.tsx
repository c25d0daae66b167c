// A digest's tables, grouped by restaurant and date: each table a link that opens that slot
// on the platform (the inbox shows the same digest the email and the webhook carry).
import type { AlertGroup } from '../../requests/inbox'

const platformLink = (link: string) => (link.startsWith('https://resy.com/') ? link : null)

export function DigestGroups(props: { groups: AlertGroup[] }) {
  return (
    <div class="digest">
      {props.groups.map((group) => (
        <section class="digest-group">
          <h3 class="digest-head">
            {group.restaurant} · {group.tables[0]?.when.split(' · ')[0] ?? group.date}
          </h3>
          <ul class="digest-tables">
            {group.tables.map((table) => {
              const words = [table.when.split(' · ')[1] ?? table.time, table.seating, table.fee].filter(Boolean).join(' · ')
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
