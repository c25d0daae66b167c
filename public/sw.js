// Tablewatch's service worker: shows each push message as a notification, and a tap
// opens the alert's page (its primary action: the table on the platform, the approval page, the
// request). It caches no pages: every page still comes from the service. When the browser replaces
// its subscription (pushsubscriptionchange), the new one is sent to the service, or pushes would
// silently stop reaching this browser.
// The message is the JSON src/notifications/push/message.ts writes: the Declarative Web Push shape
// ({ web_push: 8030, notification: { title, body, navigate, tag, actions } }), which Safari shows by
// itself, with the same words at the top level ({ title, body, url, tag }) for older messages.
// A "Book" action (an alert of one table the service could book) opens its "Book this table" page.

self.addEventListener('push', (event) => {
  let message = {}
  try {
    message = event.data ? event.data.json() : {}
  } catch {
    message = { body: event.data ? event.data.text() : '' }
  }
  const shown = message && typeof message.notification === 'object' && message.notification !== null ? message.notification : message
  const title = typeof shown.title === 'string' && shown.title !== '' ? shown.title : 'Tablewatch'
  const url = typeof shown.navigate === 'string' ? shown.navigate : typeof shown.url === 'string' ? shown.url : '/notifications'
  const book = Array.isArray(shown.actions) ? shown.actions.find((a) => a && a.action === 'book' && typeof a.navigate === 'string') : null
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof shown.body === 'string' ? shown.body : '',
      tag: typeof shown.tag === 'string' ? shown.tag : undefined,
      icon: '/icon-192.png',
      badge: '/icon-192.png',
      actions: book ? [{ action: 'book', title: typeof book.title === 'string' ? book.title : 'Book' }] : [],
      data: { url, ...(book ? { book: book.navigate } : {}) },
    }),
  )
})

/** https pages, or this site's own: anything else opens the inbox. */
function targetOf(url) {
  try {
    const target = new URL(url, self.location.origin)
    if (target.protocol === 'https:' || target.origin === self.location.origin) return target.href
  } catch {}
  return new URL('/notifications', self.location.origin).href
}

self.addEventListener('notificationclick', onNotificationClick)

function onNotificationClick(event) {
  event.notification.close()
  const data = event.notification.data ?? {}
  const url = targetOf(event.action === 'book' && data.book ? data.book : data.url)
  event.waitUntil(
    (async () => {
      const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
      const same = open.find((client) => client.url === url && 'focus' in client)
      if (same) return same.focus()
      return self.clients.openWindow(url)
    })(),
  )
}

// What public/push.js keeps for this worker: the subscription the service knows and the key.
const PUSH_STATE = 'tablewatch-push'
const CURRENT = '/push/current'

self.addEventListener('pushsubscriptionchange', onSubscriptionChange)

function onSubscriptionChange(event) {
  event.waitUntil(renewSubscription(event.oldSubscription ?? null, event.newSubscription ?? null))
}

function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/')
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4))
  return Uint8Array.from(raw, (c) => c.charCodeAt(0))
}

/**
 * Sends the service the new subscription with the one it replaces (its auth secret is the
 * credential: this worker has no session). Browsers that give no new subscription (Firefox, and
 * Chromium gives no old one either) get one made with the same key.
 */
async function renewSubscription(oldSubscription, newSubscription) {
  const cache = await caches.open(PUSH_STATE)
  const saved = await cache
    .match(CURRENT)
    .then((answer) => (answer ? answer.json() : null))
    .catch(() => null)
  const old = oldSubscription ? oldSubscription.toJSON() : saved?.subscription
  if (!old) return
  const key = oldSubscription?.options?.applicationServerKey ?? (saved?.key ? keyBytes(saved.key) : null)
  const renewed =
    newSubscription ?? (key ? await self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }) : null)
  if (!renewed) return
  const answer = await fetch('/push/renewals', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    credentials: 'omit',
    body: JSON.stringify({ old, new: renewed }),
  })
  if (answer.ok) await cache.put(CURRENT, new Response(JSON.stringify({ subscription: renewed, key: saved?.key ?? null })))
}
