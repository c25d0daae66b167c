// What a push notification says: the alert's own title and words (the same digest the inbox and
// the email carry; a digest's short words, its soonest few tables), and where a tap goes, the alert's primary action. A push message holds at most
// 4096 bytes after encryption (RFC 8291, section 4), 3993 of them the message itself, so the body is
// shortened; the full text stays in the inbox.
import type { AlertKind } from '../kinds'

/** The notification as Declarative Web Push states it (Safari shows it without running the service worker). */
type DeclarativeNotification = {
  title: string
  body: string
  navigate: string
  tag: string
  /** "Book": an alert of one table the service could book opens its "Book this table" page. */
  actions?: { action: 'book'; title: string; navigate: string }[]
}

/**
 * The Declarative Web Push shape (`web_push: 8030` and `notification`), which Safari needs and
 * drops subscriptions without; the same words at the top level for service workers that read
 * them (public/sw.js reads `notification` first; one installed before it did reads these).
 */
export type PushMessage = {
  web_push: 8030
  notification: DeclarativeNotification
  title: string
  body: string
  /** The page a tap opens. */
  url: string
  /** Notifications with one tag replace each other on the device (one per request). */
  tag: string
}

const MAX_TITLE = 200
const MAX_BODY = 1000

const shortened = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`)

/** Longer links would crowd the message's 3993 bytes; such an alert opens the inbox instead. */
const MAX_URL = 1500

/** The alert's link where it is a web page (https, or this service's own origin), else the inbox. */
function tapTarget(link: string | null, baseUrl: string): string {
  if (link && link.length <= MAX_URL && URL.canParse(link)) {
    const url = new URL(link)
    if (url.protocol === 'https:' || url.origin === new URL(baseUrl).origin) return url.href
  }
  return `${baseUrl}/notifications`
}

/** The library pads every message to one 4096-octet record: 3993 bytes of JSON at most; some room kept. */
const MAX_MESSAGE_BYTES = 3800
const bytesOf = (message: PushMessage) => new TextEncoder().encode(JSON.stringify(message)).length

export function pushMessageOf(
  alert: {
    title: string
    body: string
    short?: string | undefined
    link: string | null
    requestId: string | null
    kind: AlertKind | 'test'
    book?: string | undefined
  },
  baseUrl: string,
): PushMessage {
  const url = tapTarget(alert.link, baseUrl)
  const tag = alert.requestId ? `request:${alert.requestId}:${alert.kind}` : `tablewatch:${alert.kind}`
  const book = alert.book && alert.book.length <= MAX_URL && alert.book.startsWith(`${baseUrl}/`) ? alert.book : null
  const actions = book ? [{ action: 'book' as const, title: 'Book', navigate: book }] : []
  const shaped = (title: string, body: string): PushMessage => ({
    web_push: 8030,
    notification: { title, body, navigate: url, tag, ...(actions.length > 0 ? { actions } : {}) },
    title,
    body,
    url,
    tag,
  })
  // A lock screen shows a few lines: the alert's short words where it has them (a digest's soonest tables).
  let message = shaped(shortened(alert.title, MAX_TITLE), shortened(alert.short ?? alert.body, MAX_BODY))
  // Characters are not bytes (a "·" is two, a "’" three), and the declarative shape carries the
  // words twice: shorten the body until the JSON fits, then, for a very long link, the title.
  while (bytesOf(message) > MAX_MESSAGE_BYTES && message.body.length > 1) {
    message = shaped(message.title, shortened(message.body, Math.floor(message.body.length * 0.8)))
  }
  while (bytesOf(message) > MAX_MESSAGE_BYTES && message.title.length > 1) {
    message = shaped(shortened(message.title, Math.floor(message.title.length * 0.8)), message.body)
  }
  return message
}

/**
 * How long the push service keeps a message for an offline device (RFC 8030, section 5.2): a table
 * found is worth little an hour later; other notices keep the service's day.
 */
export function deliveryOptionsOf(kind: AlertKind | 'test'): { ttl: number; urgency: 'high' | 'normal' } {
  if (kind === 'table_found' || kind === 'approval_needed') return { ttl: 60 * 60, urgency: 'high' }
  return { ttl: 24 * 60 * 60, urgency: 'normal' }
}
