// Web Push the whole way in a real browser against `wrangler dev`: the diner presses "Turn on push
// for this browser" (public/push.js runs as shipped), a test push travels to a push service on
// this machine (https on loopback, allowed only in local development), and the message it got,
// decrypted as the browser would (RFC 8291), is delivered to the registered service worker
// (public/sw.js) as a real push event (DevTools' ServiceWorker.deliverPushMessage). Its
// notification, tapped, opens the alert's page; a renewed subscription (pushsubscriptionchange)
// reaches the service, and the next push goes to it.
//
// What the headless Chromium shell cannot do, and what stands in for it: it denies notification
// permission whatever is granted and cannot subscribe (that needs the vendor's push service), so
// the page's Notification.permission and PushManager answer as a browser would that allowed
// notifications and subscribed to the local push service, with real keys; the worker's
// showNotification (refused without permission) is recorded instead of drawn; and a tap or a
// subscription change, which only the browser can fire, calls the worker's own handlers with
// that notification and that subscription.
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import type { Browser, BrowserContext, CDPSession, Page, Worker } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { type BrowserKeys, b64u, browserKeys, decryptPush } from '../push/rfc8291'
import { launchBrowser } from './browser'
import { newUser } from './pages'

const baseUrl = inject('baseUrl')
let browser: Browser
let context: BrowserContext
let page: Page
let pushService: Server
let pushOrigin = ''
const received = new Map<string, Uint8Array>()

interface BrowserSubscription {
  id: string
  keys: BrowserKeys
  json: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } }
}

async function newSubscription(): Promise<BrowserSubscription> {
  const id = `browser-${crypto.randomUUID()}`
  const keys = await browserKeys()
  return {
    id,
    keys,
    json: {
      endpoint: `${pushOrigin}/push/${id}`,
      expirationTime: null,
      keys: { p256dh: b64u(keys.publicKey), auth: b64u(keys.authSecret) },
    },
  }
}

let first: BrowserSubscription
/** The subscription the service holds after the renewal. */
let renewed: BrowserSubscription

beforeAll(async () => {
  const { cert, key } = inject('loopbackTls')
  pushService = createServer({ cert, key }, async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    received.set(req.url?.split('/').pop() ?? '', new Uint8Array(Buffer.concat(chunks)))
    res.writeHead(201).end()
  })
  await new Promise<void>((ok) => pushService.listen(0, '127.0.0.1', ok))
  pushOrigin = `https://127.0.0.1:${(pushService.address() as AddressInfo).port}`
  first = await newSubscription()
  browser = await launchBrowser()
  context = await browser.newContext()
  // The browser side of "allow notifications, subscribe": see the file's comment.
  await context.addInitScript((subscription) => {
    Object.defineProperty(Notification, 'permission', { get: () => 'granted' })
    Notification.requestPermission = async () => 'granted'
    let current: unknown = null
    PushManager.prototype.getSubscription = async () => current as PushSubscription | null
    PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
      current = {
        ...subscription,
        options: { userVisibleOnly: true, applicationServerKey: options?.applicationServerKey ?? null },
        toJSON: () => subscription,
        unsubscribe: async () => {
          current = null
          return true
        },
      }
      return current as PushSubscription
    }
  }, first.json)
  page = await context.newPage()
  await newUser(page, baseUrl)
})
afterAll(async () => {
  await browser?.close()
  await new Promise((ok) => pushService.close(ok))
})

async function serviceWorker(): Promise<Worker> {
  const running = context.serviceWorkers().find((w) => w.url() === `${baseUrl}/sw.js`)
  return running ?? context.waitForEvent('serviceworker', { predicate: (w) => w.url() === `${baseUrl}/sw.js` })
}

/** The worker's notifications are recorded from now on (the headless shell refuses to show them). */
async function recordNotifications(worker: Worker): Promise<void> {
  await worker.evaluate(() => {
    const scope = self as unknown as { shown: { title: string; options: NotificationOptions }[] }
    scope.shown = []
    ServiceWorkerRegistration.prototype.showNotification = async (title: string, options: NotificationOptions = {}) => {
      scope.shown.push({ title, options })
    }
  })
}

async function deliverToWorker(cdp: CDPSession, registrationId: string, data: string): Promise<void> {
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: baseUrl, registrationId, data })
}

async function registrationIdOf(cdp: CDPSession): Promise<string> {
  const ids: string[] = []
  cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => {
    for (const r of event.registrations) if (r.scopeURL === `${baseUrl}/` && !r.isDeleted) ids.push(r.registrationId)
  })
  await cdp.send('ServiceWorker.enable')
  await expect.poll(() => ids.length, { timeout: 10_000 }).toBeGreaterThan(0)
  return ids[0] ?? ''
}

async function pushReceived(id: string): Promise<Uint8Array> {
  await expect.poll(() => received.has(id), { timeout: 20_000 }).toBe(true)
  return received.get(id) ?? new Uint8Array()
}

async function sendTestPush(): Promise<void> {
  await page.goto(`${baseUrl}/settings#push`)
  await page.getByRole('button', { name: 'Send a test push' }).click()
  await page.waitForLoadState('load')
  expect(await page.locator('.alert').first().textContent()).toContain('Test push sent to 1 browser.')
}

describe('push in the browser', () => {
  it('turns on with the button, shows the pushed notification in the service worker, and a tap opens its page', async () => {
    await page.goto(`${baseUrl}/settings`)
    const turnOn = page.getByRole('button', { name: 'Turn on push for this browser' })
    await turnOn.waitFor({ state: 'visible', timeout: 20_000 })
    await turnOn.click()
    await page.waitForURL(/done=push_on/)
    expect(await page.locator('[data-push-subscription]').count()).toBe(1)

    const worker = await serviceWorker()
    const cdp = await context.newCDPSession(page)
    const registrationId = await registrationIdOf(cdp)
    await recordNotifications(worker)
    await sendTestPush()
    const message = await decryptPush(await pushReceived(first.id), first.keys)
    await deliverToWorker(cdp, registrationId, message)
    await expect
      .poll(() => worker.evaluate(() => (self as unknown as { shown: { title: string }[] }).shown.length), { timeout: 10_000 })
      .toBe(1)
    const shown = await worker.evaluate(() => (self as unknown as { shown: { title: string; options: NotificationOptions }[] }).shown[0])
    expect(shown?.title).toBe('Tablewatch test')
    expect(shown?.options.data).toEqual({ url: `${baseUrl}/notifications` })

    // The tap: the worker's own click handler with that notification opens the inbox.
    const opened = await worker.evaluate(async (data) => {
      const result = { closed: false, opened: [] as string[] }
      const clients = (self as unknown as { clients: { openWindow: (url: string) => Promise<null> } }).clients
      clients.openWindow = async (url: string) => {
        result.opened.push(url)
        return null
      }
      let pending: Promise<unknown> = Promise.resolve()
      const click = (self as unknown as { onNotificationClick: (event: unknown) => void }).onNotificationClick
      click({
        notification: {
          data,
          close: () => {
            result.closed = true
          },
        },
        waitUntil: (promise: Promise<unknown>) => {
          pending = promise
        },
      })
      await pending
      return result
    }, shown?.options.data)
    expect(opened).toEqual({ closed: true, opened: [`${baseUrl}/notifications`] })
  })

  it('sends a renewed subscription to the service when the browser replaces it, and pushes go to the new one', async () => {
    const worker = await serviceWorker()
    renewed = await newSubscription()
    // Chromium's pushsubscriptionchange carries no old subscription: the worker uses the one push.js kept.
    const status = await worker.evaluate(async (subscription) => {
      let pending: Promise<unknown> = Promise.resolve()
      const change = (self as unknown as { onSubscriptionChange: (event: unknown) => void }).onSubscriptionChange
      change({
        oldSubscription: null,
        newSubscription: { ...subscription, toJSON: () => subscription },
        waitUntil: (promise: Promise<unknown>) => {
          pending = promise
        },
      })
      await pending
      const saved = await (await caches.open('tablewatch-push')).match('/push/current')
      return saved ? ((await saved.json()) as { subscription: { endpoint: string } }).subscription.endpoint : null
    }, renewed.json)
    expect(status).toBe(renewed.json.endpoint)

    await page.goto(`${baseUrl}/settings#push`)
    expect(await page.locator('[data-push-subscription]').count()).toBe(1)
    received.clear()
    await sendTestPush()
    const message = JSON.parse(await decryptPush(await pushReceived(renewed.id), renewed.keys))
    expect(message).toMatchObject({ title: 'Tablewatch test' })
    expect(received.has(first.id)).toBe(false)
  })

  it('refuses a renewal that does not prove the earlier subscription, and changes nothing', async () => {
    const stranger = await newSubscription()
    const forged = await newSubscription()
    const answer = await fetch(`${baseUrl}/push/renewals`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      // The endpoint the service holds, with another browser's secret.
      body: JSON.stringify({ old: { ...stranger.json, endpoint: renewed.json.endpoint }, new: forged.json }),
    })
    expect(answer.status).toBe(404)
    expect(await answer.json()).toMatchObject({ code: 'not_found' })
    received.clear()
    await sendTestPush()
    await pushReceived(renewed.id)
    expect(received.has(forged.id)).toBe(false)
  })
})
