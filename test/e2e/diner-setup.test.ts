// A new diner's first visit, at phone and desktop width: signed in right after sign-up,
// the setup checklist until it is done, empty states that link to the next step, Settings that
// shows the connected account and keeps the form behind "Reconnect", the inbox paged and read
// on view, and copy buttons on the developers page.

import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { pageDay } from '../helpers/time'
import { dateIn } from './api'
import { launchBrowser, screenshotBoth } from './browser'
import { executeSql, literal } from './d1'
import { connectPlatform, createRequest, createToken, dinnerAt, findVenue } from './diner'
import { newUser } from './pages'

const baseUrl = inject('baseUrl')
let browser: Browser
let context: BrowserContext
let page: Page
let email = ''
let token = ''

const steps = () => page.locator('.checklist .step').evaluateAll((items) => items.map((li) => li.classList.contains('done')))

beforeAll(async () => {
  browser = await launchBrowser()
  context = await browser.newContext({ viewport: { width: 390, height: 844 } })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl })
  page = await context.newPage()
})
afterAll(async () => {
  await browser?.close()
})

describe("a new diner's pages", () => {
  it('is signed in after sign-up and sees the checklist, with empty states that link to the next step', async () => {
    email = await newUser(page, baseUrl)
    expect(await steps()).toEqual([false, false, false])
    expect(await page.getByRole('link', { name: 'Connect it in Settings' }).getAttribute('href')).toBe('/settings#platform')
    await screenshotBoth(page, 'setup-checklist-new')

    await page.goto(`${baseUrl}/requests`)
    expect(await page.locator('.empty-state').innerText()).toContain('No requests yet')
    expect(await page.locator('.empty-state').getByRole('link', { name: 'Connect an assistant' }).getAttribute('href')).toBe('/assistants')
    await page.goto(`${baseUrl}/notifications`)
    expect(await page.locator('.empty-state').getByRole('link', { name: 'See your requests' }).getAttribute('href')).toBe('/requests')
    await screenshotBoth(page, 'notifications-empty')
  })

  it('shows the connected account in Settings and keeps the connect form behind "Reconnect"', async () => {
    await page.goto(`${baseUrl}/settings`)
    expect(await page.getByLabel('Platform email').isVisible()).toBe(true) // not connected: the form is out
    await connectPlatform(page, baseUrl, `setup-${email}`)
    expect(await page.locator('.facts dt:text-is("Connected as") + dd').innerText()).not.toBe('')
    expect(await page.getByLabel('Platform email').isVisible()).toBe(false)
    expect(await page.getByText('Before you connect').isVisible()).toBe(false)
    await screenshotBoth(page, 'settings-connected-account')
    await page.locator('details.reconnect summary').click()
    expect(await page.getByLabel('Platform email').isVisible()).toBe(true)
    await screenshotBoth(page, 'settings-reconnect-open')
  })

  it('ticks the checklist off as the diner goes, and hides it once a request exists', async () => {
    await page.goto(`${baseUrl}/`)
    expect(await steps()).toEqual([true, false, false])
    token = await createToken(page, baseUrl, 'Setup assistant')
    await page.goto(`${baseUrl}/`)
    expect(await steps()).toEqual([true, true, false])
    expect(await page.locator('.example-prompt').innerText()).toContain('Find me a table for 2')
    const venue = await findVenue(baseUrl, token, 'Pomelo Garden')
    // An early-morning window: no table, so no alert joins the inbox the next test counts.
    await createRequest(
      baseUrl,
      token,
      dinnerAt(venue, 'alert_only', [25], { title: 'Thai dawn', earliest_time: '05:00', latest_time: '05:30' }),
    )
    await page.goto(`${baseUrl}/`)
    expect(await page.locator('.checklist').count()).toBe(0)
    // Home is what is next: the request watched, with its last check; an approval waiting.
    expect(await page.locator('h1').innerText()).toBe('What is next')
    const watched = page.locator('section:has(#watching-heading) .home-item', { hasText: 'Thai dawn' })
    expect(await watched.locator('.found-line').innerText()).toMatch(/^No table found yet( · checked \d+ (s|min) ago)?$/)
    const approve = await createRequest(baseUrl, token, dinnerAt(venue, 'auto_book', [26], { title: 'Birthday', party_size: 6 }))
    await page.goto(`${baseUrl}/`)
    const waiting = page.locator('section:has(#approvals-heading) .home-item', { hasText: 'Birthday' })
    expect(await waiting.locator('.muted').innerText()).toBe(
      `Pomelo Garden · ${pageDay(dateIn(venue.time_zone, 26))} · 5:00 PM–10:00 PM ET · 6 people`,
    )
    await screenshotBoth(page, 'home-what-is-next')
    await waiting.getByRole('link', { name: 'Review and approve' }).click()
    await page.waitForLoadState('load')
    expect(page.url()).toBe(String(approve.action_url))
  })

  it('pages the inbox and clears the unread badge when it is viewed', async () => {
    const user = `(select id from users where email = ${literal(email)})`
    const now = Date.now()
    const rows = Array.from(
      { length: 23 },
      (_, i) => `(${user}, 'page-${i}', 'alert', 'Alert ${i + 1}', 'A table at Pomelo Garden', '/requests', ${now + i})`,
    )
    await executeSql(`insert into notifications (user_id, dedupe_key, kind, title, body, link, created_at) values ${rows.join(', ')}`)
    // 23 and the approval notice of the previous test's Birthday request.
    await page.goto(`${baseUrl}/settings`)
    expect(await page.locator('.badge').innerText()).toBe('24')
    await page.goto(`${baseUrl}/notifications`)
    expect(await page.locator('.badge').count()).toBe(0)
    expect(await page.locator('.items .item').count()).toBe(20)
    expect(await page.locator('.items .item-title').first().innerText()).toBe('Alert 23')
    expect(await page.locator('.pager').innerText()).toContain('Page 1 of 2')
    await screenshotBoth(page, 'notifications-paged')
    await page.getByRole('link', { name: 'Older' }).click()
    await page.waitForLoadState('load')
    expect(await page.locator('.items .item-title').allInnerTexts()).toEqual([
      'Alert 3',
      'Alert 2',
      'Alert 1',
      expect.stringMatching(/^Approve: Birthday for 6 at Pomelo Garden · /),
    ])
    await page.goto(`${baseUrl}/settings`)
    expect(await page.locator('.badge').count()).toBe(0)
  })

  it('copies the code blocks of the developers page', async () => {
    await page.goto(`${baseUrl}/developers`)
    const copy = page.getByRole('button', { name: 'Copy the REST example' })
    await copy.click()
    const copied = await page.evaluate(() => navigator.clipboard.readText())
    expect(copied).toBe((await page.locator('#code-rest').textContent())?.trim())
    expect(copied).toContain('curl')
    // Every code block has one, the webhook example and its signature check too; each block scrolls and takes keyboard focus.
    expect(await page.locator('.code-block .copy').count()).toBe(5)
    expect(await page.locator('pre').count()).toBe(5)
    await page.getByRole('button', { name: 'Copy the example webhook request' }).click()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('"version": 1')
    await page.getByRole('button', { name: 'Copy checking the signature' }).click()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('Tablewatch-Signature')
    await screenshotBoth(page, 'developers-copy')
  })
})
