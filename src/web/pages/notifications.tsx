// The in-app inbox and, in local development, the outbox of emails that would have been sent.
import type { InboxItem, OutboxEmail } from '../../requests/inbox'
import { DigestGroups } from '../components/digest-groups'
import { CsrfInput } from '../components/form'
import { formatDateTime } from '../format'

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

function NotificationItem(props: { item: InboxItem; csrfToken: string }) {
  const { item } = props
  const unread = item.readAt === null
  const link = safeLink(item.link)
  return (
    <li class={unread ? 'item unread' : 'item'}>
      <div class="item-head">
        <h2 class="item-title">{item.title}</h2>
        {unread ? <span class="status status-unread">Unread</span> : null}
      </div>
      {item.groups ? <DigestGroups groups={item.groups} /> : <p class="body-text">{item.body}</p>}
      <p class="muted">{formatDateTime(item.createdAt)}</p>
      <div class="row">
        {link ? <a href={link}>Open</a> : null}
        {unread ? (
          <form method="post" action={`/notifications/${item.id}/read`} class="inline-form">
            <CsrfInput token={props.csrfToken} />
            <button type="submit" class="button secondary small">
              Mark as read
            </button>
          </form>
        ) : null}
      </div>
    </li>
  )
}

export function NotificationsPage(props: { items: InboxItem[]; csrfToken: string; showOutbox: boolean }) {
  const unread = props.items.filter((n) => n.readAt === null).length
  return (
    <>
      <div class="page-head">
        <h1>Notifications</h1>
        {unread > 0 ? (
          <form method="post" action="/notifications/read-all" class="inline-form">
            <CsrfInput token={props.csrfToken} />
            <button type="submit" class="button secondary small">
              Mark all as read
            </button>
          </form>
        ) : null}
      </div>
      {props.items.length === 0 ? (
        <p class="empty">No notifications yet. Alerts about your requests will appear here.</p>
      ) : (
        <ul class="items">
          {props.items.map((item) => (
            <NotificationItem item={item} csrfToken={props.csrfToken} />
          ))}
        </ul>
      )}
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
