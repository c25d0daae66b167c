// The request page a diner opens from an alert (issue 16): it starts with the status, when the
// platform was last checked, how long watching goes on and the next step; alerts and the trace
// come in pages instead of one endless list.

import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
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

describe.runIf(inject('sandbox'))('the request page', () => {
  it('starts with the status, "last checked N s ago", the time left and the next step; tables found are grouped per restaurant-date and paged, as are notices and the trace', async () => {
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
    expect(await page.locator('#expires-in').innerText()).toMatch(/^in (1 day 2[0-3] h|2 days) \(.* · \d{1,2}:\d{2} [AP]M ET\)$/)
    expect(await page.locator('.next-step').innerText()).toBe(
      'Next: Nothing to do: you get an alert when a table appears, and book it yourself on the platform.',
    )
    // The status card comes before everything else on a phone.
    const statusTop = (await page.locator('.request-status').boundingBox())?.y ?? Number.POSITIVE_INFINITY
    expect(statusTop).toBeLessThan(400)
    await screenshotBoth(page, 'request-page-top')

    // Tables are grouped per restaurant-date across alerts, newest alert first, five to a page.
    const heads = () => page.locator('#alerts-heading ~ .digest .digest-head').allInnerTexts()
    const dayWords = (n: number) =>
      new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
        Date.parse(`${day(n)}T12:00:00Z`),
      )
    expect(await page.locator('#found-summary').innerText()).toContain('7 restaurant-dates from 3 alerts')
    expect(await heads()).toEqual([7, 1, 5, 6, 2].map((n) => `Saltgrass Oyster Bar · ${dayWords(n)}`))
    // Day 1 was in two alerts: one group with the tables of both, by time, each in the venue's zone.
    const dayOne = page.locator('.digest-group', { hasText: dayWords(1) })
    expect(await dayOne.locator('.digest-tables li').allInnerTexts()).toEqual(['5:30 PM ET · Bar', '6:00 PM ET · Bar', '6:30 PM ET · Bar'])
    expect(await dayOne.locator('a').first().getAttribute('href')).toBe(
      `https://resy.com/cities/new-york/venues/saltgrass?date=${day(1)}&seats=2`,
    )
    expect(await page.locator('#notices-heading').innerText()).toBe('Other notices (2)')
    expect(await page.locator('#notices-heading ~ .alerts .item-title').allInnerTexts()).toEqual(['Watching ended', 'Expires tomorrow'])
    for (const [label, size] of [
      ['phone', { width: 390, height: 844 }],
      ['desktop', { width: 1280, height: 800 }],
    ] as const) {
      await page.setViewportSize(size)
      // The page stays short: the whole alerts section fits in a few screens at this width.
      const box = await page.locator('#alerts-heading').evaluate((h) => h.parentElement?.getBoundingClientRect().height ?? 0)
      expect(box, label).toBeLessThan(size.height * 2)
    }
    await page.setViewportSize({ width: 390, height: 844 })
    await page.locator('#alerts-heading').scrollIntoViewIfNeeded()
    await screenshotBoth(page, 'request-page-tables-found')
    await page.locator('#alerts-pager').getByRole('link', { name: 'Older' }).click()
    await page.waitForLoadState('load')
    expect(await page.locator('#alerts-pager').innerText()).toContain('Page 2 of 2')
    expect(await heads()).toEqual([3, 4].map((n) => `Saltgrass Oyster Bar · ${dayWords(n)}`))

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
