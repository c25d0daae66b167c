// Alerts a diner can act on, in a real browser at phone and desktop
// width, against the sandbox platform and a local webhook receiver: the alert preferences in
// Settings (caps, a switch per kind, the ntfy and Slack webhook presets), one digest for the tables a poll
// found (inbox with a link per slot, the outbox email, the versioned webhook JSON), and the
// approval notice whose link opens the approval page.
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { sandboxControl } from '../../sandbox/control-client'
import { dayWhen } from '../../src/alerts/alert-time'
import { pageDay } from '../helpers/time'
import { callApi, dateIn, type Json } from './api'
import { launchBrowser, screenshotBoth } from './browser'
import { newUser } from './pages'

const baseUrl = inject('baseUrl')
const sandbox = sandboxControl({ fetcher: globalThis, baseUrl: inject('sandboxUrl') })
let browser: Browser
let page: Page
let receiver: Server
let hook = ''
let token = ''
const received: { headers: IncomingMessage['headers']; body: string }[] = []

async function readBody(req: IncomingMessage): Promise<string> {
  let text = ''
  for await (const chunk of req) text += String(chunk)
  return text
}

beforeAll(async () => {
  receiver = createServer(async (req, res) => {
    received.push({ headers: req.headers, body: await readBody(req) })
    res.writeHead(200).end('ok')
  })
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok))
  hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
  browser = await launchBrowser()
  page = await (await browser.newContext()).newPage()
  await newUser(page, baseUrl)
})
afterAll(async () => {
  await browser?.close()
  await new Promise((ok) => receiver.close(ok))
})

async function saveAlertPreferences() {
  await page.goto(`${baseUrl}/settings`)
  await page.getByLabel('A request I have not approved expires in a day').uncheck()
  await page.getByLabel(/Tell me again about the same table/).selectOption({ label: '30 minutes' })
  await page.getByLabel('Table alerts by email, push and webhook per day, at most').fill('5')
  await page.getByRole('button', { name: 'Save alert preferences' }).click()
  await page.waitForURL(/done=alerts/)
}

/** The webhook under Settings → Advanced: its address and format, saved together. */
async function saveWebhook(format: 'Tablewatch JSON (documented on the Developers page)' | 'ntfy' | 'Slack incoming webhook') {
  await page.goto(`${baseUrl}/settings`)
  await page.getByLabel('Webhook URL (optional)').fill(hook)
  await page.getByLabel('Webhook format').selectOption({ label: format })
  await page.getByRole('button', { name: 'Save webhook' }).click()
  // The first save answers with the new signing secret on the page itself; later ones redirect to done=saved.
  await page.getByText('Notification settings saved.').waitFor()
}

/** Settings' "Send a test to my webhook": the page says it was accepted; the one message the receiver got. */
async function sendWebhookTest() {
  received.length = 0
  await page.getByRole('button', { name: 'Send a test to my webhook' }).click()
  await page.waitForLoadState('load')
  expect(await page.locator('.alert-success').innerText()).toBe('Test sent. Your webhook accepted it.')
  expect(received).toHaveLength(1)
  // Signed with the webhook's own secret (the Developers page says how to check it).
  expect(received[0]?.headers['tablewatch-signature']).toMatch(/^v1=[0-9a-f]{64}$/)
  return received[0]
}

describe('alert preferences in Settings', () => {
  it('shows the caps and a switch per kind, saves them, and posts the test in the chosen preset', async () => {
    await saveWebhook('ntfy')
    await saveAlertPreferences()
    expect(await page.locator('.alert-success').innerText()).toBe('Alert preferences saved.')
    expect(await page.getByLabel('A request I have not approved expires in a day').isChecked()).toBe(false)
    expect(await page.getByLabel('Tablewatch finds tables for a request (one alert for all the tables of one check)').isChecked()).toBe(
      true,
    )
    expect(await page.getByLabel(/Tell me again about the same table/).inputValue()).toBe('30')
    expect(await page.getByLabel('Table alerts by email, push and webhook per day, at most').inputValue()).toBe('5')
    await screenshotBoth(page, 'settings-alerts')

    // A cap out of range is refused next to the field, and nothing changes.
    await page.getByLabel('Table alerts by email, push and webhook per day, at most').fill('0')
    await page.getByRole('button', { name: 'Save alert preferences' }).click()
    await page.waitForLoadState('load')
    expect(await page.locator('#daily_alert_cap-error').innerText()).toBe('At least 1')
    await page.goto(`${baseUrl}/settings`)
    expect(await page.getByLabel('Table alerts by email, push and webhook per day, at most').inputValue()).toBe('5')

    // The ntfy preset: plain text with Title and Click headers.
    const ntfy = await sendWebhookTest()
    expect(ntfy?.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(ntfy?.headers.title).toBe('Tablewatch test')
    expect(ntfy?.headers.click).toBe(`${baseUrl}/notifications`)
    expect(ntfy?.body).toBe('This is a test from Tablewatch. Alerts about your requests will arrive like this.')

    // The Slack preset: an incoming-webhook message, {text} with Slack's <url|label> link.
    await saveWebhook('Slack incoming webhook')
    expect(await page.getByLabel('Webhook format').inputValue()).toBe('slack')
    // The alert preferences saved before are kept.
    expect(await page.getByLabel(/Tell me again about the same table/).inputValue()).toBe('30')
    const slack = await sendWebhookTest()
    expect(slack?.headers['content-type']).toBe('application/json')
    expect(JSON.parse(slack?.body ?? '')).toEqual({
      text: `*Tablewatch test*\nThis is a test from Tablewatch. Alerts about your requests will arrive like this.\n<${baseUrl}/notifications|Open>`,
    })
  })
})

describe('a digest and the other notices', () => {
  it('sends one alert for the tables a poll found: inbox links per slot, one email, versioned webhook JSON', async () => {
    await saveWebhook('Tablewatch JSON (documented on the Developers page)')
    await page.goto(`${baseUrl}/assistants`)
    await page.getByLabel('Name').fill('Alerts assistant')
    await page.getByRole('button', { name: 'Create token' }).click()
    token = (await page.locator('#new-token-value').innerText()).trim()
    await page.goto(`${baseUrl}/settings`)
    await page.getByLabel('Platform email').fill(`diner-${crypto.randomUUID().slice(0, 6)}@example.com`)
    await page.getByLabel('Platform password').fill('sandbox-password-1')
    await page.getByLabel(/I understand that the platform may deactivate my account/).check()
    await page.getByRole('button', { name: 'Connect' }).click()
    await page.waitForURL(/done=connected/)

    const venues: Json[] = []
    for (const q of ['Marrow', 'Pomelo'])
      venues.push(...((await callApi(baseUrl, token, `/restaurants?q=${q}`)).body.restaurants as Json[]).slice(0, 1))
    const zone = String(venues[0]?.time_zone)
    const dates = [20, 21].map((d) => dateIn(zone, d))
    // Tables nobody else watches: mid-morning, where the sandbox has no tables of its own.
    const tables = [
      [0, 0, '10:00', 'Booth'],
      [0, 0, '10:30', 'Bar'],
      [0, 1, '10:15', 'Dining Room'],
      [1, 1, '10:45', 'Garden'],
    ] as const
    for (const [v, d, time, seating] of tables) {
      const added = await sandbox.addSlot({
        venueId: Number(venues[v]?.venue_id),
        day: dates[d] ?? '',
        time,
        seating,
        partyMin: 1,
        partyMax: 6,
        policy: { kind: 'free' },
      })
      expect(added).toBe(true)
    }
    received.length = 0
    const spec = {
      venue_ids: venues.map((v) => v.venue_id),
      dates,
      earliest_time: '09:30',
      latest_time: '11:30',
      timezone: zone,
      party_size: 2,
      mode: 'alert_only',
      expires_at: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    }
    const created = await callApi(baseUrl, token, '/requests', { method: 'POST', body: spec, idempotencyKey: crypto.randomUUID() })
    expect(created.status, JSON.stringify(created.body)).toBe(201)

    // The polls of all four venue-days report; after the gather window, one alert.
    const deadline = Date.now() + 90_000
    await page.goto(`${baseUrl}/notifications`)
    while ((await page.locator('.digest-summary').count()) === 0) {
      if (Date.now() > deadline) throw new Error('no digest in the inbox in time')
      await new Promise((ok) => setTimeout(ok, 1_000))
      await page.reload()
    }
    await new Promise((ok) => setTimeout(ok, 20_000)) // one more poll round (15 s here) changes nothing
    await page.reload()
    expect(await page.locator('.digest-summary').count()).toBe(1)
    // The subject names the request and what the alert holds; the true count comes next, then the soonest tables.
    const subject = `Your table for 2: 4 tables, ${dayWhen(dates[0] ?? '')} to ${dayWhen(dates[1] ?? '')} · soonest ${dayWhen(dates[0] ?? '')} · 10:00 AM ET`
    expect(await page.locator('.item-title').first().innerText()).toBe(subject)
    expect(await page.locator('.digest-summary').first().innerText()).toMatch(
      new RegExp(`^4 tables for 2 at 2 restaurants on 2 dates\\. The soonest: ${venues[0]?.name}, .* 10:00 AM ET\\.$`),
    )
    // The soonest four, soonest first, each naming its restaurant (two here); then "See all" opens the request page.
    const rows = page.locator('.item').first().locator('.alert-tables li')
    expect(await rows.count()).toBe(4)
    // Each row as the pages write a date (with the year when it is not this year's), then its Book button.
    expect(await rows.first().innerText()).toMatch(
      new RegExp(`^${pageDay(dates[0] ?? '')} · 10:00 AM ET Booth · ${venues[0]?.name}\\nBook this table$`),
    )
    expect(await rows.first().locator('a:not(.book-button)').getAttribute('href')).toMatch(
      new RegExp(`^https://resy.com/cities/[a-z-]+/venues/[a-z-]+\\?date=${dates[0]}&seats=2$`),
    )
    expect(
      await rows
        .first()
        .getByRole('link', { name: /^Book this table/ })
        .getAttribute('href'),
    ).toContain(`/requests/${created.body.id}/book?table=`)
    await screenshotBoth(page, 'notifications-digest')

    // The request page lists the same tables, one group per restaurant and date, soonest first, in the venue's zone.
    await page.goto(`${baseUrl}/requests/${created.body.id}`)
    expect(await page.locator('#found-summary').innerText()).toMatch(/^4 tables found · soonest .* 10:00 AM ET/)
    expect(await page.locator('.digest-group').count()).toBe(3)
    expect(await page.locator('.digest-group .time-button:not(.book-button)').first().innerText()).toMatch(/^10:00 AM \S+ · Booth$/)
    await screenshotBoth(page, 'request-page-digest')

    await page.goto(`${baseUrl}/outbox`)
    expect(await page.getByText(subject, { exact: true }).count()).toBe(1)

    const posts = received.filter((r) => r.headers['content-type'] === 'application/json').map((r) => JSON.parse(r.body) as Json)
    const digests = posts.filter((p) => p.kind === 'table_found')
    expect(digests).toHaveLength(1)
    expect(digests[0]).toMatchObject({ version: 1, title: subject, request_id: created.body.id })
    expect(((digests[0]?.groups ?? []) as Json[]).map((g) => [g.restaurant, g.date, (g.tables as Json[]).map((t) => t.time)])).toEqual([
      [venues[0]?.name, dates[0], ['10:00', '10:30']],
      [venues[0]?.name, dates[1], ['10:15']],
      [venues[1]?.name, dates[1], ['10:45']],
    ])
  })

  it('asks the user to approve an auto_book request, with a link to the approval page', async () => {
    const venue = ((await callApi(baseUrl, token, '/restaurants?q=Saltgrass')).body.restaurants as Json[])[0]
    const zone = String(venue?.time_zone)
    const spec = {
      venue_ids: [venue?.venue_id],
      dates: [dateIn(zone, 30)],
      earliest_time: '09:30',
      latest_time: '10:30',
      timezone: zone,
      party_size: 2,
      mode: 'auto_book',
      max_cancellation_fee_per_person: 25,
      expires_at: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    }
    const created = await callApi(baseUrl, token, '/requests', { method: 'POST', body: spec, idempotencyKey: crypto.randomUUID() })
    expect(created.status).toBe(201)
    await page.goto(`${baseUrl}/notifications`)
    // Names the dinner: party, restaurant, date (not "a booking request").
    const item = page.locator('.item', { hasText: `Approve: A table for 2 at ${venue?.name} · ` })
    expect(await item.count()).toBe(1)
    await screenshotBoth(page, 'notifications-approval')
    await item.getByRole('link', { name: 'Review and approve' }).click()
    await page.waitForLoadState('load')
    expect(page.url()).toBe(String(created.body.action_url))
  })
})
