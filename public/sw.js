// Tablewatch's service worker (issue 25): shows each push message as a notification, and a tap
// opens the alert's page (its primary action: the table on the platform, the approval page, the
// request). It caches nothing: every page still comes from the service.
// The message is the JSON src/push/message.ts writes: { title, body, url, tag }.

self.addEventListener('push', (event) => {
  let message = {}
  try {
    message = event.data ? event.data.json() : {}
  } catch {
    message = { body: event.data ? event.data.text() : '' }
  }
  const title = typeof message.title === 'string' && message.title !== '' ? message.title : 'Tablewatch'
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof message.body === 'string' ? message.body : '',
      tag: typeof message.tag === 'string' ? message.tag : undefined,
      icon: '/icon-192.png',
      badge: '/icon-192.png',
      data: { url: typeof message.url === 'string' ? message.url : '/notifications' },
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

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const url = targetOf(event.notification.data?.url)
  event.waitUntil(
    (async () => {
      const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
      const same = open.find((client) => client.url === url && 'focus' in client)
      if (same) return same.focus()
      return self.clients.openWindow(url)
    })(),
  )
})
