// What an alert looks like on the user's webhook, in the format they chose (Settings):
//  - json: Tablewatch's own, versioned body (version 1, documented on the Developers page);
//  - ntfy: a plain-text message with Title and Click headers (POST to https://ntfy.sh/<topic>);
//  - slack: an incoming-webhook message ({text}, with Slack's <url|label> links).

import { type AlertGroup, bestOf } from '../db/alert-groups'

export type { AlertGroup } from '../db/alert-groups'

export interface WebhookAlert {
  kind: string
  title: string
  text: string
  link: string | null
  requestId: string | null
  groups: AlertGroup[]
  sentAt: number
}

export type WebhookFormat = 'json' | 'ntfy' | 'slack'

const WEBHOOK_BODY_VERSION = 1

export interface WebhookPayload {
  headers: Record<string, string>
  body: string
}

/** The body (and headers) of one webhook call. */
export function webhookPayload(format: WebhookFormat, alert: WebhookAlert): WebhookPayload {
  switch (format) {
    case 'ntfy':
      return {
        // ntfy reads the title and the click-through link from headers; header values are ASCII.
        headers: { 'content-type': 'text/plain; charset=utf-8', Title: ascii(alert.title), ...(alert.link ? { Click: alert.link } : {}) },
        body: alert.text,
      }
    case 'slack':
      return { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: slackText(alert) }) }
    case 'json':
      return {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          version: WEBHOOK_BODY_VERSION,
          kind: alert.kind,
          title: alert.title,
          text: alert.text,
          link: alert.link,
          request_id: alert.requestId,
          sent_at: new Date(alert.sentAt).toISOString(),
          groups: alert.groups.map((g) => ({
            restaurant: g.restaurant,
            venue_id: g.venueId,
            date: g.date,
            time_zone: g.timeZone ?? null,
            tables: g.tables.map((t) => ({
              time: t.time,
              seating: t.seating,
              fee: t.fee,
              note: t.note,
              link: t.link,
              book_link: t.book ?? null,
            })),
            // Tables of this restaurant-date counted but not listed (beyond the alert's limit).
            more_tables: g.more ?? 0,
          })),
        }),
      }
  }
}

const ascii = (text: string) => text.replace(/[^\x20-\x7e]/g, (ch) => (ch === '·' ? '-' : ''))

/** The times a Slack message shows per restaurant-date (as BEST_PER_DAY in alerts/digest.ts). */
const SLACK_BEST = 3

const slackEscape = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')

function slackText(alert: WebhookAlert): string {
  const head = `*${slackEscape(alert.title)}*`
  if (alert.groups.length === 0) {
    return `${head}\n${slackEscape(alert.text)}${alert.link ? `\n<${alert.link}|Open>` : ''}`
  }
  const groups = alert.groups.map((g) => {
    // The best few times, as in the inbox and the email; the rest are one "+N more" line.
    const { best, more } = bestOf(g, SLACK_BEST)
    const lines = best.map((t) => {
      const extra = [t.seating, t.fee, t.note ? `not booked: ${t.note}` : null].filter(Boolean).join(' · ')
      return `• <${t.link}|${slackEscape(t.when.split(' · ')[1] ?? t.time)}> ${slackEscape(extra)}`
    })
    if (more > 0) lines.push(`• <${g.tables[0]?.link ?? ''}|+${more} more>`)
    return `*${slackEscape(g.restaurant)}* · ${slackEscape(g.tables[0]?.when.split(' · ')[0] ?? g.date)}\n${lines.join('\n')}`
  })
  return [head, ...groups].join('\n\n')
}
