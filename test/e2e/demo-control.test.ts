// The newcomer's first run: a newcomer signs up, connects the sandbox platform, an assistant creates
// an auto_book request for a window with no table, the newcomer approves it and presses "Open a
// matching table now" on its page: the sandbox opens a table that fits, and the request is booked
// and verified within 90 s. An alert_only request gets its alert the same way. The harness runs
// the service as npm start does (LOCAL_DEVELOPMENT=on, the sandbox behind the PLATFORM binding).
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { sandboxControl } from '../../sandbox/control-client'
import { callApi, dateIn, type Json } from './api'
import { launchBrowser, screenshotBoth } from './browser'
import { connectPlatform, createRequest, createToken, dinnerAt, findVenue } from './diner'
import { newUser } from './pages'

const baseUrl = inject('baseUrl')
const sandbox = sandboxControl({ fetcher: globalThis, baseUrl: inject('sandboxUrl') })
const BUTTON = 'Open a matching table now'
let browser: Browser
let page: Page
let token = ''
const platformEmail = `demo-${crypto.randomUUID().slice(0, 6)}@example.com`

beforeAll(async () => {
  browser = await launchBrowser()
  page = await (await browser.newContext()).newPage()
})
afterAll(async () => {
  await browser?.close()
})

/** Lunch at a restaurant whose sandbox tables are all dinner: nothing fits until one is opened. */
async function lunchSpec(mode: 'auto_book' | 'alert_only', day: number, title: string): Promise<Json> {
  const venue = await findVenue(baseUrl, token, 'Marrow')
  const spec = dinnerAt(venue, mode, [day], { title, earliest_time: '12:00', latest_time: '14:00' })
  const lunch = (await sandbox.slots(venue.venue_id, dateIn(venue.time_zone, day))).filter((s) => s.time >= '12:00' && s.time <= '14:00')
  expect(lunch).toEqual([])
  return spec
}

const status = async () => (await page.locator('.page-head .status').innerText()).trim()

describe('the demo control under local development', () => {
  it('signs up and connects the sandbox platform', async () => {
    await newUser(page, baseUrl)
    await connectPlatform(page, baseUrl, platformEmail)
    token = await createToken(page, baseUrl, 'Demo assistant')
  })

  it('books and verifies an approved auto_book within 90 s of pressing the button', { timeout: 180_000 }, async () => {
    const created = await createRequest(baseUrl, token, await lunchSpec('auto_book', 6, 'Demo lunch'))
    const id = String(created.id)
    await page.goto(String(created.action_url))
    await page.getByRole('button', { name: 'Approve' }).click()
    await page.waitForURL(/done=approved/)
    expect(await status()).toBe('Watching')

    const pressedAt = Date.now()
    await page.getByRole('button', { name: BUTTON }).click()
    await page.waitForURL(/done=demo_table/)
    expect(await page.locator('.alert-success').innerText()).toMatch(
      /The sandbox opened a free table at Marrow & Smoke, [A-Z][a-z]{2}, [A-Z][a-z]{2} \d+(, \d{4})? · 12:00 PM ET/,
    )

    while ((await status()) !== 'Booked') {
      if (Date.now() - pressedAt > 90_000) throw new Error(`not confirmed within 90 s; the page shows ${await status()}`)
      await new Promise((ok) => setTimeout(ok, 1_000))
      await page.goto(`${baseUrl}/requests/${id}`)
    }
    const took = Date.now() - pressedAt
    expect(took).toBeLessThan(90_000)
    expect(await page.locator('#reservation-heading + .items .item-head .status').allInnerTexts()).toEqual(['Booked and verified'])
    await screenshotBoth(page, 'demo-control-confirmed')
    const view = (await callApi(baseUrl, token, `/requests/${id}`)).body
    expect(view.status).toBe('confirmed')
    expect(view.reservations).toMatchObject([{ verified: true, time: '12:00', party_size: 2, cancellation_fee_per_person: 0 }])
    // The platform's own record: one booking on this account, a free table.
    const ledger = (await sandbox.ledger()).filter((b) => b.email === platformEmail)
    expect(ledger).toHaveLength(1)
    expect(ledger[0]).toMatchObject({ time: '12:00', partySize: 2, policy: { kind: 'free' } })
    console.log(`demo control: confirmed ${(took / 1000).toFixed(1)} s after the press`)
  })

  it('alerts an alert_only request within a minute of pressing the button', { timeout: 120_000 }, async () => {
    const created = await createRequest(baseUrl, token, await lunchSpec('alert_only', 8, 'Demo alert'))
    const id = String(created.id)
    await page.goto(`${baseUrl}/requests/${id}`)
    const pressedAt = Date.now()
    await page.getByRole('button', { name: BUTTON }).click()
    await page.waitForURL(/done=demo_table/)
    while ((await page.locator('#found-summary .found-line').count()) === 0) {
      if (Date.now() - pressedAt > 60_000) throw new Error('no alert within a minute')
      await new Promise((ok) => setTimeout(ok, 1_000))
      await page.goto(`${baseUrl}/requests/${id}`)
    }
    expect(await page.locator('#found-summary').innerText()).toMatch(/^1 table found · .* 12:00 PM ET · last found \d+ s ago$/)
    await callApi(baseUrl, token, `/requests/${id}/stop`, { method: 'POST' })
  })
})
