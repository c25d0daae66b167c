// One time style on every page: "Sat, Nov 28 · 9:30 PM ET", a dinner (its date, time window,
// tables, reservation) in the restaurant's zone, a moment (when something happened or ends) in the
// viewer's zone.

import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchBrowser, screenshotBoth } from './browser'
import { connectPlatform, createRequest, createToken, dinnerAt, findVenue } from './diner'
import { newUser } from './pages'

const baseUrl = inject('baseUrl')
let browser: Browser
let page: Page
let token = ''

/** "Sat, Nov 28 · 9:30 PM" followed by the zone's short name. */
const styled = (zone: string) => new RegExp(`^[A-Z][a-z]{2}, [A-Z][a-z]{2} \\d{1,2}(, \\d{4})? · \\d{1,2}:\\d{2} [AP]M ${zone}$`)

beforeAll(async () => {
  browser = await launchBrowser()
  // The viewer is in Chicago: times without a restaurant are shown in Central time.
  page = await (await browser.newContext({ timezoneId: 'America/Chicago' })).newPage()
  const email = await newUser(page, baseUrl)
  await connectPlatform(page, baseUrl, `tz-${email}`)
  token = await createToken(page, baseUrl, 'Time assistant')
})
afterAll(async () => {
  await browser?.close()
})

describe('time style', () => {
  it("writes a Los Angeles dinner in Pacific time and its moments in the viewer's zone (Central)", async () => {
    const venue = await findVenue(baseUrl, token, 'Palisade Grill')
    expect(venue.time_zone).toBe('America/Los_Angeles')
    const created = await createRequest(baseUrl, token, dinnerAt(venue, 'alert_only', [30], { title: 'Sunset dinner' }))
    await page.goto(`${baseUrl}/requests/${String(created.id)}`)
    // What it asks for and what Tablewatch did are folded below the tables: opened, as a diner would.
    await page.locator('details.fold').evaluateAll((folds) => {
      for (const fold of folds) if (fold instanceof HTMLDetailsElement) fold.open = true
    })
    const spec = page.locator('.facts.spec')
    expect(await spec.locator('dt:text-is("Time") + dd').innerText()).toBe('Between 5:00 PM and 10:00 PM PT')
    expect((await spec.locator('dt:text-is("Watching ends") + dd').innerText()).trim()).toMatch(styled('CT'))
    expect(await spec.locator('dt:text-is("Date") + dd').innerText()).toMatch(/^[A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}(, \d{4})?$/)
    const traceTimes = await page.locator('.trace time').allInnerTexts()
    expect(traceTimes.length).toBeGreaterThan(0)
    for (const t of traceTimes) expect(t).toMatch(styled('CT'))
    await screenshotBoth(page, 'time-style-request')
  })

  it("writes times without a restaurant in the viewer's zone (here Central), named", async () => {
    await page.goto(`${baseUrl}/assistants`)
    // The page script reported the zone on the first page; every page after it uses it.
    const created = await page.locator('.items .item dt:text-is("Created") + dd').first().innerText()
    expect(created.trim()).toMatch(styled('CT'))
  })

  it('never writes UTC before the page script ran: moments where Cloudflare locates the browser, a notice too', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    const plain = await context.newPage()
    const email = await newUser(plain, baseUrl)
    await connectPlatform(plain, baseUrl, `noscript-${email}`)
    const plainToken = await createToken(plain, baseUrl, 'No script')
    await plain.goto(`${baseUrl}/assistants`)
    const created = (await plain.locator('.items .item dt:text-is("Created") + dd').first().innerText()).trim()
    expect(created).toMatch(styled('[A-Z]{2,4}([+-]\\d{1,2})?'))
    expect(created).not.toMatch(/UTC$/)

    const venue = await findVenue(baseUrl, plainToken, 'Palisade Grill')
    await createRequest(baseUrl, plainToken, dinnerAt(venue, 'auto_book', [4], { title: 'No-script dinner' }))
    const notice = plain.locator('.items .item').filter({ hasText: 'Palisade Grill' }).first()
    for (let i = 0; i < 80 && (await notice.count()) === 0; i++) {
      await plain.waitForTimeout(250)
      await plain.goto(`${baseUrl}/notifications`)
    }
    const dated = (await notice.locator('.item-meta time').innerText()).trim()
    expect(dated).toMatch(styled(created.split(' ').at(-1) ?? 'none'))
    await screenshotBoth(plain, 'time-style-inbox-no-script')
    await context.close()
  })
})
