// Web Push in a real browser against `wrangler dev`: the settings section at 390 px and
// 1280 px (axe checks every page when the browser closes), the service worker registering, the
// manifest, and a test push travelling to a push service on this machine (https on loopback,
// allowed only in local development), which decrypts it as the browser would (RFC 8291). A
// subscription the push service answers 410 is dropped; the Remove button removes one. And the
// whole way: a table the sandbox opens becomes the inbox's digest and the same alert, pushed.
//
// Headless Chromium cannot subscribe for real (it denies notifications, and subscribing needs
// Google's push service), so the test sends the subscription public/push.js would send, from the
// page, with the page's token.
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { sandboxControl } from '../../sandbox/control-client'
import { type BrowserKeys, b64u, browserKeys, decryptPush, verifiedVapid } from '../push/rfc8291'
import { callApi, dateIn, type Json } from './api'
import { launchBrowser, SCREENSHOT_DIR, screenshotBoth } from './browser'
import { newUser } from './pages'

const baseUrl = inject('baseUrl')
let browser: Browser
let page: Page
let pushService: Server
let pushOrigin = ''
const received: { id: string; authorization: string | undefined; encoding: string | undefined; body: Uint8Array }[] = []

beforeAll(async () => {
  const { cert, key } = inject('loopbackTls')
  pushService = createServer({ cert, key }, async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const id = req.url?.split('/').pop() ?? ''
    received.push({
      id,
      authorization: req.headers.authorization,
      encoding: req.headers['content-encoding'],
      body: new Uint8Array(Buffer.concat(chunks)),
    })
    res.writeHead(id.startsWith('gone-') ? 410 : 201).end()
  })
  await new Promise<void>((ok) => pushService.listen(0, '127.0.0.1', ok))
  pushOrigin = `https://127.0.0.1:${(pushService.address() as AddressInfo).port}`
  browser = await launchBrowser()
  // As if the diner had allowed notifications: headless Chromium denies them otherwise.
  page = await (await browser.newContext()).newPage()
  await newUser(page, baseUrl)
})
afterAll(async () => {
  await browser?.close()
  await new Promise((ok) => pushService.close(ok))
})

/** A browser's subscription to the loopback push service, sent from the settings page as public/push.js sends it. */
async function subscribeFromPage(id: string): Promise<{ keys: BrowserKeys; status: number }> {
  const keys = await browserKeys()
  const subscription = {
    endpoint: `${pushOrigin}/push/${id}`,
    expirationTime: null,
    keys: { p256dh: b64u(keys.publicKey), auth: b64u(keys.authSecret) },
  }
  const status = await page.evaluate(async (body) => {
    const token = document.querySelector<HTMLInputElement>('[data-push-key] input[name="_csrf"]')?.value ?? ''
    const res = await fetch('/settings/push/subscriptions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': token },
      body: JSON.stringify(body),
    })
    return res.status
  }, subscription)
  return { keys, status }
}

const browsersListed = () => page.locator('[data-push-subscription]').count()

describe('Web Push on the settings page', () => {
  it('registers the service worker, says why this browser cannot turn push on, and links the manifest', async () => {
    await page.goto(`${baseUrl}/settings`)
    const section = page.locator('#push')
    await expect
      .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.scriptURL ?? null), {
        timeout: 20_000,
      })
      .toBe(`${baseUrl}/sw.js`)
    // The headless shell denies notifications whatever the context grants (checked: permission
    // stays "denied"), so the page says what a diner who blocked them must do, and hides the button.
    await expect
      .poll(() => section.getByRole('status').textContent(), { timeout: 20_000 })
      .toBe('Notifications are blocked for this site. Allow them in the browser’s site settings, then reload this page.')
    expect(await section.getByRole('button', { name: 'Turn on push for this browser' }).isVisible()).toBe(false)
    expect(await section.textContent()).toContain('push reaches only a site added to the Home Screen')
    const manifest = await (await fetch(`${baseUrl}/manifest.webmanifest`)).json()
    expect(manifest).toMatchObject({ name: 'Tablewatch', start_url: '/', display: 'standalone' })
    for (const icon of manifest.icons as { src: string }[]) expect((await fetch(`${baseUrl}${icon.src}`)).status, icon.src).toBe(200)
    expect(await page.locator('link[rel="manifest"]').getAttribute('href')).toBe('/manifest.webmanifest')
  })

  it('delivers a test push the browser decrypts, drops a subscription the push service answers 410, and removes one', async () => {
    await page.goto(`${baseUrl}/settings`)
    const publicKey = await page.locator('[data-push-key]').getAttribute('data-push-key')
    const phone = await subscribeFromPage(`phone-${crypto.randomUUID()}`)
    const gone = await subscribeFromPage(`gone-${crypto.randomUUID()}`)
    expect([phone.status, gone.status]).toEqual([201, 201])
    await page.goto(`${baseUrl}/settings?done=push_on`)
    expect(await browsersListed()).toBe(2)
    await screenshotBoth(page, 'settings-push')

    await page.getByRole('button', { name: 'Send a test push' }).click()
    await page.waitForLoadState('load')
    expect(await page.getByRole('alert').or(page.locator('.alert')).first().textContent()).toContain(
      'Test push sent to 1 browser. 1 no longer had push on and was removed.',
    )
    expect(await browsersListed()).toBe(1)
    const message = received.find((m) => m.id.startsWith('phone-'))
    expect(message?.encoding).toBe('aes128gcm')
    const vapid = await verifiedVapid(message?.authorization ?? null, `${pushOrigin}/push/x`)
    expect(vapid.publicKey).toBe(publicKey)
    const payload = JSON.parse(await decryptPush(message?.body ?? new Uint8Array(), phone.keys))
    expect(payload).toMatchObject({ title: 'Tablewatch test', url: `${baseUrl}/notifications` })

    await page.getByRole('button', { name: /^Remove / }).click()
    await page.waitForURL(/done=push_removed/)
    expect(await page.locator('.alert').first().textContent()).toContain('Push is off for that browser.')
    expect(await page.getByText('No browser has push on yet.').isVisible()).toBe(true)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280)
  })

  it('fits a 390 px phone with a browser listed', async () => {
    await page.goto(`${baseUrl}/settings`)
    expect((await subscribeFromPage(`phone-${crypto.randomUUID()}`)).status).toBe(201)
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto(`${baseUrl}/settings?done=push_on#push`)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    const remove = page.getByRole('button', { name: /^Remove / })
    const box = await remove.boundingBox()
    expect(box && box.x + box.width).toBeLessThanOrEqual(390)
    await page.locator('#push').screenshot({ path: join(SCREENSHOT_DIR, 'settings-push-section-phone.png') })
    await page.setViewportSize({ width: 1280, height: 800 })
  })

  it('pushes the alert the inbox shows when the sandbox opens a table, and it names the dinner', async () => {
    const sandbox = sandboxControl({ fetcher: globalThis, baseUrl: inject('sandboxUrl') })
    await page.goto(`${baseUrl}/settings`)
    const phoneId = `dinner-${crypto.randomUUID()}`
    const phone = await subscribeFromPage(phoneId)
    expect(phone.status).toBe(201)
    await page.goto(`${baseUrl}/assistants`)
    await page.getByLabel('Name').fill('Push assistant')
    await page.getByRole('button', { name: 'Create token' }).click()
    const token = (await page.locator('#new-token-value').innerText()).trim()
    await page.goto(`${baseUrl}/settings`)
    await page.getByLabel('Platform email').fill(`push-${crypto.randomUUID().slice(0, 6)}@example.com`)
    await page.getByLabel('Platform password').fill('sandbox-password-1')
    await page.getByLabel(/I understand that the platform may deactivate my account/).check()
    await page.getByRole('button', { name: 'Connect' }).click()
    await page.waitForURL(/done=connected/)

    const [venue] = (await callApi(baseUrl, token, '/restaurants?q=Pomelo')).body.restaurants as Json[]
    const zone = String(venue?.time_zone)
    const day = dateIn(zone, 23)
    // A table nobody else watches: early morning, where the sandbox has none of its own.
    const slot = { venueId: Number(venue?.venue_id), day, time: '08:45', seating: 'Patio', partyMin: 1, partyMax: 6 }
    expect(await sandbox.addSlot({ ...slot, policy: { kind: 'free' } })).toBe(true)
    const spec = {
      venue_ids: [venue?.venue_id],
      dates: [day],
      earliest_time: '08:00',
      latest_time: '09:30',
      timezone: zone,
      party_size: 2,
      mode: 'alert_only',
      expires_at: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    }
    const created = await callApi(baseUrl, token, '/requests', { method: 'POST', body: spec, idempotencyKey: crypto.randomUUID() })
    expect(created.status, JSON.stringify(created.body)).toBe(201)

    const deadline = Date.now() + 90_000
    while (!received.some((m) => m.id === phoneId)) {
      if (Date.now() > deadline) throw new Error('no push for the table in time')
      await new Promise((ok) => setTimeout(ok, 1_000))
    }
    const message = received.find((m) => m.id === phoneId)
    const payload = JSON.parse(await decryptPush(message?.body ?? new Uint8Array(), phone.keys))
    expect(payload.title).toContain(String(venue?.name))
    expect(payload.body).toContain('1 table for 2')
    await page.goto(`${baseUrl}/notifications`)
    expect(await page.locator('.item-title').allInnerTexts()).toContain(payload.title)
  })
})
