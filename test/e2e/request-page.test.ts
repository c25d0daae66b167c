// The request page a diner opens from an alert: it starts with the tables found (soonest first,
// one group per restaurant and date, in pages), then the status, when the platform was last
// checked, how long watching goes on and the next step; the details, notices and trace fold below.

import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { pageDay } from '../helpers/time'
import { callApi, dateIn, type Json, waitForRequest } from './api'
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

describe('the request page', () => {
  it('starts with the tables found, soonest first, grouped per restaurant and date and paged; then the status, "last checked N s ago", the time left and the next step; notices and the trace fold below, paged', async () => {
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
    // Alerts about this request, as the watcher stores them: three digests whose restaurant-dates
    // overlap (the oldest and the middle one both list day 1), and two notices without tables.
    const zone = String(venue.time_zone)
    const day = (n: number) => dateIn(zone, n)
    const group = (n: number, times: string[]) => ({
      restaurant: 'Saltgrass Oyster Bar',
      venueId: venue.venue_id,
      date: day(n),
      tables: times.map((time) => ({
        time,
        when: `${day(n)} · ${time}`,
        seating: 'Bar',
        fee: null,
        note: null,
        link: `https://resy.com/cities/new-york/venues/saltgrass?date=${day(n)}&seats=2`,
      })),
    })
    const user = `(select id from users where email = ${literal(email)})`
    const now = Date.now()
    const digests = [
      [group(1, ['18:00', '18:30']), group(2, ['19:00']), group(3, ['19:00']), group(4, ['20:00'])],
      [group(1, ['17:30']), group(5, ['21:00']), group(6, ['21:15'])],
      [group(7, ['17:00', '17:15'])],
    ]
    const rows = [
      ...digests.map(
        (groups, i) =>
          `(${user}, ${literal(id)}, 'digest-${i}', 'table_found', 'Tables open ${i}', 'see the groups', '/requests/${id}', ${now + i * 1000}, ${literal(JSON.stringify(groups))})`,
      ),
      `(${user}, ${literal(id)}, 'notice-1', 'expiry_warning', 'Expires tomorrow', 'Approve it or let it go.', '/requests/${id}', ${now - 5000}, null)`,
      `(${user}, ${literal(id)}, 'notice-2', 'request_ended', 'Watching ended', 'It ran out.', '/requests/${id}', ${now - 4000}, null)`,
    ]
    await executeSql(
      `insert into notifications (user_id, request_id, dedupe_key, kind, title, body, link, created_at, groups) values ${rows.join(', ')}`,
    )

    await page.goto(`${baseUrl}/requests/${id}`)
    expect(await page.locator('.page-head .status').innerText()).toBe('Watching')
    expect(await page.locator('#last-checked').innerText()).toMatch(/^\d+ (s|min) ago$/)
    expect(await page.locator('#expires-in').innerText()).toMatch(/^in (1 day 2[0-3] h|2 days) \(.* · \d{1,2}:\d{2} [AP]M \S+\)$/)
    expect(await page.locator('.next-step').innerText()).toBe(
      'Next: Nothing to do: you get an alert when a table appears, and book it yourself on the platform.',
    )
    // The tables come first on a phone, then the status card.
    const tablesTop = (await page.locator('#tables').boundingBox())?.y ?? Number.POSITIVE_INFINITY
    const statusTop = (await page.locator('.request-status').boundingBox())?.y ?? Number.POSITIVE_INFINITY
    expect(tablesTop).toBeLessThan(200)
    expect(tablesTop).toBeLessThan(statusTop)
    await screenshotBoth(page, 'request-page-top')

    // Tables are grouped per restaurant and date across alerts, the soonest first, five to a page.
    const heads = () => page.locator('#tables .digest-head').allInnerTexts()
    const dayWords = (n: number) => pageDay(day(n))
    const head = (n: number, tables: number) => `Saltgrass Oyster Bar · ${dayWords(n)} · ${tables} ${tables === 1 ? 'table' : 'tables'}`
    expect(await page.locator('#found-summary').innerText()).toMatch(/^10 tables found · soonest .* · 5:30 PM ET · last found \d+ s ago$/)
    expect(await heads()).toEqual([head(1, 3), head(2, 1), head(3, 1), head(4, 1), head(5, 1)])
    // Day 1 was in two alerts: one group with the tables of both, by time, each in the venue's zone.
    const dayOne = page.locator('.digest-group', { hasText: dayWords(1) })
    expect(await dayOne.locator('.time-button').allInnerTexts()).toEqual(['5:30 PM ET · Bar', '6:00 PM ET · Bar', '6:30 PM ET · Bar'])
    expect(await dayOne.locator('a').first().getAttribute('href')).toBe(
      `https://resy.com/cities/new-york/venues/saltgrass?date=${day(1)}&seats=2`,
    )
    // An expiry warning says nothing true once the request is approved: only the other notice is listed.
    expect(await page.locator('#notices-heading').innerText()).toBe('Other notices (1)')
    expect(await page.locator('#notices .alerts .item-title').allTextContents()).toEqual(['Watching ended'])
    for (const [label, size] of [
      ['phone', { width: 390, height: 844 }],
      ['desktop', { width: 1280, height: 800 }],
    ] as const) {
      await page.setViewportSize(size)
      // The page stays short: the whole tables section fits in a few screens at this width.
      const box = await page.locator('#tables').evaluate((section) => section.getBoundingClientRect().height)
      expect(box, label).toBeLessThan(size.height * 2)
    }
    await page.setViewportSize({ width: 390, height: 844 })
    await screenshotBoth(page, 'request-page-tables-found')
    await page.locator('#alerts-pager').getByRole('link', { name: 'Later' }).click()
    await page.waitForLoadState('load')
    expect(await page.locator('#alerts-pager').innerText()).toContain('Page 2 of 2')
    expect(await heads()).toEqual([head(6, 1), head(7, 2)])

    await page.goto(`${baseUrl}/requests/${id}`)
    expect(await page.locator('#trace').getAttribute('open')).toBeNull()
    expect(await page.locator('.trace li').count()).toBe(15)
    expect(await page.locator('#trace-pager').textContent()).toContain('Page 1 of 2')
    await page.locator('#trace-heading').click()
    await page.locator('#trace-pager').getByRole('link', { name: 'Older' }).click()
    await page.waitForLoadState('load')
    // The folded trace opens by itself on the page its pager asked for.
    expect(await page.locator('#trace').getAttribute('open')).not.toBeNull()
    expect(await page.locator('.trace li').count()).toBeGreaterThan(0)
    expect(await page.locator('.trace li').last().innerText()).toContain('Created')
    await callApi(baseUrl, token, `/requests/${id}/stop`, { method: 'POST' })
  })
})
