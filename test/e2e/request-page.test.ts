// The request page a diner opens from an alert (issue 16): it starts with the status, when the
// platform was last checked, how long watching goes on and the next step; alerts and the trace
// come in pages instead of one endless list.

import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { callApi, type Json, waitForRequest } from './api'
import { launchBrowser, screenshotBoth } from './browser'
import { executeSql, literal } from './d1'
import { connectPlatform, createRequest, createToken, dinnerAt, findVenue } from './diner'
import { newUser } from './pages'

const baseUrl = inject('baseUrl')
let browser: Browser
let page: Page
let token = ''
let email = ''

beforeAll(async () => {
  browser = await launchBrowser()
  page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage()
  email = await newUser(page, baseUrl)
  await connectPlatform(page, baseUrl, `page-${email}`)
  token = await createToken(page, baseUrl, 'Page assistant')
})
afterAll(async () => {
  await browser?.close()
})

describe.runIf(inject('sandbox'))('the request page', () => {
  it('starts with the status, "last checked N s ago", the time left and the next step; alerts and trace are paged', async () => {
    const venue = await findVenue(baseUrl, token, 'Saltgrass Oyster Bar')
    const spec = dinnerAt(venue, 'alert_only', [33], { title: 'Oysters', earliest_time: '05:00', latest_time: '05:30' })
    const created = await createRequest(baseUrl, token, spec)
    const id = String(created.id)
    const view = await waitForRequest(baseUrl, token, id, (v) => typeof v.last_checked_at === 'string')

    // Each update adds to the trace: enough for two pages.
    let revision = Number(view.revision)
    for (let i = 0; i < 16; i++) {
      const res = await callApi(baseUrl, token, `/requests/${id}`, {
        method: 'PUT',
        body: { revision, spec: { ...spec, title: `Oysters ${i}` } },
        idempotencyKey: `e2e-${crypto.randomUUID()}`,
      })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      revision = Number((res.body as Json).revision)
    }
    // Alerts about this request, as the watcher stores them.
    const user = `(select id from users where email = ${literal(email)})`
    const rows = Array.from(
      { length: 12 },
      (_, i) =>
        `(${user}, ${literal(id)}, 'req-alert-${i}', 'alert', 'Table ${i + 1} at Saltgrass', 'Saltgrass Oyster Bar · 5:00 AM', '/requests/${id}', ${Date.now() + i})`,
    )
    await executeSql(
      `insert into notifications (user_id, request_id, dedupe_key, kind, title, body, link, created_at) values ${rows.join(', ')}`,
    )

    await page.goto(`${baseUrl}/requests/${id}`)
    expect(await page.locator('.page-head .status').innerText()).toBe('Watching')
    expect(await page.locator('#last-checked').innerText()).toMatch(/^\d+ (s|min) ago$/)
    expect(await page.locator('#expires-in').innerText()).toMatch(/^in (1 day 2[0-3] h|2 days) \(.* · \d{1,2}:\d{2} [AP]M ET\)$/)
    expect(await page.locator('.next-step').innerText()).toBe(
      'Next: Nothing to do: you get an alert when a table appears, and book it yourself on the platform.',
    )
    // The status card comes before everything else on a phone.
    const statusTop = (await page.locator('.request-status').boundingBox())?.y ?? Number.POSITIVE_INFINITY
    expect(statusTop).toBeLessThan(400)
    await screenshotBoth(page, 'request-page-top')

    expect(await page.locator('#alerts-heading').innerText()).toBe('Alerts sent (12)')
    expect(await page.locator('.alerts .item').count()).toBe(10)
    expect(await page.locator('.alerts .item-title').first().innerText()).toBe('Table 12 at Saltgrass')
    await page.locator('#alerts-pager').getByRole('link', { name: 'Older' }).click()
    await page.waitForLoadState('load')
    expect(await page.locator('.alerts .item-title').allInnerTexts()).toEqual(['Table 2 at Saltgrass', 'Table 1 at Saltgrass'])

    await page.goto(`${baseUrl}/requests/${id}`)
    expect(await page.locator('.trace li').count()).toBe(15)
    expect(await page.locator('#trace-pager').innerText()).toContain('Page 1 of 2')
    await page.locator('#trace-pager').getByRole('link', { name: 'Older' }).click()
    await page.waitForLoadState('load')
    expect(await page.locator('.trace li').count()).toBeGreaterThan(0)
    expect(await page.locator('.trace li').last().innerText()).toContain('Created')
    await callApi(baseUrl, token, `/requests/${id}/stop`, { method: 'POST' })
  })
})
