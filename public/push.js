// Turns Web Push on for this browser (issue 25), on the settings page: registers the service
// worker (/sw.js), asks for permission when the diner presses the button, subscribes with the
// service's VAPID public key (data-push-key) and sends the subscription to the service with the
// page's CSRF token. Without this file (or in a browser without push) the section says so.

const box = document.querySelector('[data-push-key]')
if (box) setUpPush(box)

/** The VAPID key as pushManager.subscribe wants it: base64url to bytes. */
function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/')
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4))
  return Uint8Array.from(raw, (c) => c.charCodeAt(0))
}

function sameKey(buffer, bytes) {
  if (!buffer) return false
  const a = new Uint8Array(buffer)
  return a.length === bytes.length && a.every((v, i) => v === bytes[i])
}

/**
 * What the service worker needs when the browser replaces this subscription (public/sw.js,
 * pushsubscriptionchange): the subscription it replaces, whose secret proves the renewal, and the
 * key to subscribe with. Chromium's event carries neither. Kept in Cache Storage, which both share.
 */
async function rememberForWorker(subscription, key) {
  try {
    const cache = await caches.open('tablewatch-push')
    await cache.put('/push/current', new Response(JSON.stringify({ subscription, key })))
  } catch {
    // Without it a renewal waits for the diner to turn push on again; push works meanwhile.
  }
}

const onAppleMobile = () =>
  /iPhone|iPad|iPod/.test(navigator.userAgent) || (navigator.maxTouchPoints > 1 && /Macintosh/.test(navigator.userAgent))
const standalone = () => window.matchMedia('(display-mode: standalone)').matches || navigator.standalone === true

async function setUpPush(box) {
  const status = box.querySelector('[data-push-status]')
  const button = box.querySelector('[data-push-enable]')
  const say = (text) => {
    status.textContent = text
  }
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
    say(
      onAppleMobile() && !standalone()
        ? 'Add Tablewatch to the Home Screen first (see below), open it from there, and turn push on.'
        : 'This browser cannot receive push notifications.',
    )
    return
  }
  let registration
  try {
    registration = await navigator.serviceWorker.register('/sw.js')
  } catch {
    say('This browser could not start push here.')
    return
  }
  if (Notification.permission === 'denied') {
    say('Notifications are blocked for this site. Allow them in the browser’s site settings, then reload this page.')
    return
  }
  const key = keyBytes(box.getAttribute('data-push-key'))
  // A browser whose push service is out of reach may refuse even to look: then there is none.
  const existing = await registration.pushManager.getSubscription().catch(() => null)
  say(
    existing ? 'This browser has a push subscription. Turn push on again if it is not in the list below.' : 'Push is off for this browser.',
  )
  button.hidden = false
  button.addEventListener('click', async () => {
    button.disabled = true
    try {
      if ((await Notification.requestPermission()) !== 'granted') {
        say('Notifications were not allowed, so push stays off.')
        return
      }
      let subscription = await registration.pushManager.getSubscription()
      // A subscription made with another key (the service's key changed) cannot be used: replace it.
      if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
        await subscription.unsubscribe()
        subscription = null
      }
      subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key })
      const token = box.querySelector('input[name="_csrf"]').value
      const response = await fetch('/settings/push/subscriptions', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': token },
        body: JSON.stringify(subscription),
      })
      if (!response.ok) {
        const body = await response.json().catch(() => null)
        say(body?.message ?? 'Tablewatch could not turn push on. Try again.')
        return
      }
      await rememberForWorker(subscription, box.getAttribute('data-push-key'))
      location.assign('/settings?done=push_on#push')
    } catch {
      say('This browser could not turn push on. Try again, or use another browser.')
    } finally {
      button.disabled = false
    }
  })
}
