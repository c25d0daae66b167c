// Money with its sign and the fee-review rule as the API means it, where a
// diner reads them: the request page and the inbox say why a table was not booked.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { sandboxControl } from '../../sandbox/control-client'
import { dateIn, waitForRequest } from './api'
import { launchBrowser, screenshotBoth } from './browser'
import { connectPlatform, createRequest, createToken, dinnerAt, findVenue, lunchTable } from './diner'
import { newUser } from './pages'

const baseUrl = inject('baseUrl')
const sandbox = sandboxControl({ fetcher: globalThis, baseUrl: inject('sandboxUrl') })
let browser: Browser
let page: Page
let token = ''

beforeAll(async () => {
  browser = await launchBrowser()
  page = await (await browser.newContext()).newPage()
  const email = await newUser(page, baseUrl)
  await connectPlatform(page, baseUrl, `money-${email}`)
  token = await createToken(page, baseUrl, 'Money assistant')
})
afterAll(async () => {
  await browser?.close()
})

/** Reloads `path` until its main text contains `text` (the watcher works on its own clock). */
async function waitForText(path: string, text: string): Promise<string> {
  let seen = ''
  for (let i = 0; i < 120 && !seen.includes(text); i++) {
    await page.goto(`${baseUrl}${path}`)
    seen = await page.locator('main').innerText()
    if (!seen.includes(text)) await page.waitForTimeout(1000)
  }
  return seen
}

describe('why a table was not booked', () => {
  it('names fees with their dollar sign and the deadline rule as "at least N hours after booking"', async () => {
    const venue = await findVenue(baseUrl, token, 'Marrow & Smoke')
    const date = dateIn(venue.time_zone, 9)
    const spec = dinnerAt(venue, 'auto_book', [9], { title: 'Fee test lunch', earliest_time: '12:00', latest_time: '14:00' })
    const created = await createRequest(baseUrl, token, spec)
    const id = String(created.id)
    await page.goto(String(created.action_url))
    const approvedAt = Date.now()
    await page.getByRole('button', { name: 'Approve' }).click()
    await page.waitForURL(/done=approved/)
    await waitForRequest(baseUrl, token, id, (v) => typeof v.last_checked_at === 'string' && Date.parse(v.last_checked_at) >= approvedAt)
    // Above the $25 limit: never booked automatically.
    expect(await sandbox.addSlot(lunchTable(venue, date, { kind: 'fee', feePerPerson: 50, cutoffHours: 24 }))).toBe(true)

    const feeWords = 'the cancellation fee is $50 per person, above the $25 limit'
    const requestText = await waitForText(`/requests/${id}`, feeWords)
    expect(requestText).toContain(feeWords)
    expect(requestText).not.toMatch(/cancellation fee \d+ > \d+/)
    // The approval summary, folded under "What it asks for", words the fee-review rule as the API means it.
    await page.locator('#details > summary').click()
    expect(await page.locator('#details').innerText()).toContain('the free-cancellation deadline must be at least 3 hours after booking')
    await screenshotBoth(page, 'money-not-booked-request')

    const inbox = await waitForText('/notifications', feeWords)
    expect(inbox).toContain(feeWords)
    await screenshotBoth(page, 'money-not-booked-inbox')
  })
})
