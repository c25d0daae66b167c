// The in-app inbox and, in local development, the outbox of emails that would have been sent.

import type { InboxItem, OutboxEmail } from '../../alerts/inbox'
import type { Status } from '../../core/status'
import { type PageOf, Pager } from '../../html/components/pager'
import { formatDateTime } from '../../html/format'
import { AlertTables } from '../components/alert-tables'

/** Links in notifications come from the service; only same-site paths and https are made clickable. */
function safeLink(link: string | null): string | null {
  if (!link) return null
  if (link.startsWith('/') && !link.startsWith('//')) return link
  try {
    return new URL(link).protocol === 'https:' || new URL(link).hostname === 'localhost' ? link : null
  } catch {
    return null
  }
}

/** The words of a notice's one action, which comes first (before the tables or the text). */
function actionWords(item: Pick<InboxItem, 'kind' | 'link'>): string {
  const onPlatform = item.link?.startsWith('https://resy.com/') ?? false
  switch (item.kind) {
    case 'approval_needed':
    case 'expiry_warning':
      return 'Review and approve'
    case 'table_found':
    case 'booking_skipped':
      return onPlatform ? 'Book on the platform' : 'See the tables'
    default:
      return onPlatform ? 'Open on the platform' : item.link?.includes('/requests/') ? 'Open the request' : 'Open'
  }
}

/** Where the notice's request stands now. */
const NOW_WORDS: Record<Status, string> = {
  needs_approval: 'Waiting for your approval',
  active: 'Still watching',
  awaiting_verification: 'Booked, being verified',
  confirmed: 'Booked',
  expired: 'Ended',
  stopped: 'Stopped',
  revoked: 'Ended',
}

/** An approval notice whose request moved on, in one true sentence instead of its old "approve it". */
const SETTLED_WORDS: Record<Status, string> = {
  needs_approval: '',
  active: 'You approved it; Tablewatch is watching.',
  awaiting_verification: 'You approved it, and a table was booked: Tablewatch is confirming it with the platform.',
  confirmed: 'You approved it, and the table is booked.',
  expired: 'It ended without your approval.',
  stopped: 'It was declined or stopped.',
  revoked: 'It ended: the assistant that asked for it was disconnected.',
}

const ASKS_APPROVAL: readonly string[] = ['approval_needed', 'expiry_warning']

function NotificationItem(props: { item: InboxItem; status: Status | undefined }) {
  const { item, status } = props
  const isNew = item.readAt === null
  // An approval notice whose request moved on no longer asks for approval: it says what became of it.
  const settled = ASKS_APPROVAL.includes(item.kind) && status !== undefined && status !== 'needs_approval'
  const link = settled && item.requestId ? `/requests/${item.requestId}` : safeLink(item.link)
  const external = link?.startsWith('https://resy.com/') ?? false
  const requestPage = item.requestId ? `/requests/${encodeURIComponent(item.requestId)}#tables` : null
  return (
    <li class={isNew ? 'item unread' : 'item'}>
      <div class="item-head">
        <h2 class="item-title">{item.title}</h2>
        {isNew ? <span class="status status-unread">New</span> : null}
      </div>
      <p class="muted item-meta">
        <time datetime={new Date(item.createdAt).toISOString()}>{formatDateTime(item.createdAt)}</time>
        {status ? (
          <>
            {' · '}
            <span class={`status status-${status.replaceAll('_', '-')}`}>{NOW_WORDS[status]}</span>
          </>
        ) : null}
      </p>
      {item.groups ? (
        <>
          {/* The digest's first line is its true count ("412 tables for 2 at 8 restaurants on 14 dates."). */}
          <p class="digest-summary">{item.body.split('\n\n')[0]?.replace(/ Book on the platform.*$/, '')}</p>
          <AlertTables groups={item.groups} seeAll={requestPage} />
        </>
      ) : (
        <p class="body-text">{settled && status ? SETTLED_WORDS[status] : item.body}</p>
      )}
      {link && !item.groups ? (
        <div class="row">
          <a class="button small" href={link} {...(external ? { rel: 'noopener noreferrer', target: '_blank' } : {})}>
            {settled ? 'Open the request' : actionWords(item)}
          </a>
        </div>
      ) : null}
    </li>
  )
}

export interface NotificationsProps {
  inbox: PageOf<InboxItem>
  statuses: ReadonlyMap<string, Status>
  showOutbox: boolean
}

export function NotificationsPage(props: NotificationsProps) {
  const { items } = props.inbox
  return (
    <>
      <h1>Inbox</h1>
      {props.inbox.total > 0 ? <p class="muted">Opening this page marks your notifications as read.</p> : null}
      {items.length === 0 ? (
        <div class="card empty-state">
          <p>No notifications yet. Alerts about your requests appear here, and by email if you choose so in Settings.</p>
          <p>
            <a href="/requests">See your requests</a>
          </p>
        </div>
      ) : (
        <ul class="items">
          {items.map((item) => (
            <NotificationItem item={item} status={item.requestId ? props.statuses.get(item.requestId) : undefined} />
          ))}
        </ul>
      )}
      <Pager page={props.inbox} path="/notifications" param="page" label="notifications" />
      {props.showOutbox ? (
        <p class="muted">
          Local development: see the <a href="/outbox">emails that would have been sent</a>.
        </p>
      ) : null}
    </>
  )
}

export function OutboxPage(props: { emails: OutboxEmail[] }) {
  return (
    <>
      <h1>Outbox</h1>
      <p class="lead">In local development, Tablewatch sends no email. These are the messages it would have sent to you.</p>
      {props.emails.length === 0 ? (
        <p class="empty">No emails yet.</p>
      ) : (
        <ul class="items">
          {props.emails.map((email) => (
            <li class="item">
              <h2 class="item-title">{email.subject}</h2>
              <p class="muted">
                To {email.toAddress} · {formatDateTime(email.createdAt)}
              </p>
              <pre class="email-body">{email.body}</pre>
            </li>
          ))}
        </ul>
      )}
    </>
  )
}
