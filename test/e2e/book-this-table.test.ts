// "Book this table" in a real browser, against the sandbox platform: an alert_only request's table
// found by the watcher offers "Book this table" on the request page; its page names the table and
// its terms, and one press books it, verified on the platform account. The same table taken
// meanwhile books nothing; a deposit table offers no button; a fee above the limit is booked only
// once accepted on the page. Phone and desktop width, light and dark; every page is audited by axe
// when the browser closes (browser.ts).
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { sandboxControl } from '../../sandbox/control-client'
import { callApi, dateIn, type Json, waitForRequest } from './api'
import { launchBrowser, screenshotBoth } from './browser'
import { connectPlatform, createRequest, createToken, findVenue, lunchTable, type Venue } from './diner'
import { newUser } from './pages'

const baseUrl = inject('baseUrl')
const sandbox = sandboxControl({ fetcher: globalThis, baseUrl: inject('sandboxUrl') })
let browser: Browser
let page: Page
let token = ''

beforeAll(async () => {
  browser = await launchBrowser()
  page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage()
  const email = await newUser(page, baseUrl)
  await connectPlatform(page, baseUrl, `book-${email}`)
  token = await createToken(page, baseUrl, 'Booking assistant')
})
afterAll(async () => {
  await browser?.close()
})

/** An alert_only lunch (12:00–14:00, two) at the dinner-only Marrow & Smoke, `days` ahead, polled once already. */
async function watchedLunch(days: number, extra: Json = {}) {
  const venue: Venue = await findVenue(baseUrl, token, 'Marrow')
  const date = dateIn(venue.time_zone, days)
  const created = await createRequest(baseUrl, token, {
    title: `Lunch in ${days} days`,
    venue_ids: [venue.venue_id],
    dates: [date],
    earliest_time: '12:00',
    latest_time: '14:00',
    timezone: venue.time_zone,
    party_size: 2,
    mode: 'alert_only',
    max_cancellation_fee_per_person: 25,
    expires_at: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    ...extra,
  })
  const id = String(created.id)
  const since = Date.now()
  await waitForRequest(baseUrl, token, id, (v) => typeof v.last_checked_at === 'string' && Date.parse(v.last_checked_at) >= since, 60_000)
  return { id, venue, date }
}

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

/** Screenshots at both widths, in the light and the dark scheme. */
async function screenshotsOf(name: string) {
  await screenshotBoth(page, `${name}-light`)
  await page.emulateMedia({ colorScheme: 'dark' })
  await screenshotBoth(page, `${name}-dark`)
  await page.emulateMedia({ colorScheme: 'light' })
}

const requestView = async (id: string) => (await callApi(baseUrl, token, `/requests/${id}`)).body as Json

describe('Book this table', () => {
  it('books a found table in two taps from the request page: the table named, its terms, one button; booked and verified', async () => {
    const { id, venue, date } = await watchedLunch(21)
    expect(await sandbox.addSlot(lunchTable(venue, date))).toBe(true)
    await waitForText(`/requests/${id}`, 'Book this table')

    let taps = 0
    await page
      .getByRole('link', { name: /Book this table/ })
      .first()
      .click()
    taps++
    await page.waitForURL(/\/book\?table=/)
    const main = await page.locator('main').innerText()
    expect(main).toContain('Marrow & Smoke')
    expect(main).toContain('12:30 PM')
    expect(main).toContain('2 people')
    expect(main).toContain('Booth')
    expect(main).toContain('Nothing is charged, now or later')
    await screenshotsOf('book-this-table-confirm')

    await page.getByRole('button', { name: 'Book this table' }).click()
    taps++
    const outcome = await waitForText(new URL(page.url()).pathname + new URL(page.url()).search, 'Booked and verified')
    expect(outcome).toContain('Booked and verified')
    expect(taps).toBe(2)
    await screenshotsOf('book-this-table-booked')

    const view = await requestView(id)
    expect(view.status).toBe('confirmed')
    expect(view.reservations).toEqual([expect.objectContaining({ verified: true })])
  })

  it('says "Taken meanwhile" and books nothing when the table went between the alert and the press', async () => {
    const { id, venue, date } = await watchedLunch(22)
    const table = lunchTable(venue, date)
    expect(await sandbox.addSlot(table)).toBe(true)
    await waitForText(`/requests/${id}`, 'Book this table')
    await page
      .getByRole('link', { name: /Book this table/ })
      .first()
      .click()
    await page.waitForURL(/\/book\?table=/)
    expect(await sandbox.removeSlot({ venueId: table.venueId, day: table.day, time: table.time, seating: table.seating })).toBe(true)

    await page.getByRole('button', { name: 'Book this table' }).click()
    await page.waitForURL(/\/book\?table=/)

    expect(await page.locator('main').innerText()).toContain('Taken meanwhile')
    expect(await page.getByRole('button', { name: 'Book this table' }).count()).toBe(0)
    await screenshotsOf('book-this-table-taken')
    const view = await requestView(id)
    expect(view.status).toBe('active')
    expect(view.reservations).toEqual([])
  })

  it('offers no "Book this table" for a deposit table', async () => {
    const { id, venue, date } = await watchedLunch(23)
    expect(await sandbox.addSlot(lunchTable(venue, date, { kind: 'deposit', amountPerPerson: 40, cutoffHours: 24 }))).toBe(true)
    const text = await waitForText(`/requests/${id}`, 'deposit $40')
    expect(text).toContain('deposit $40')
    expect(await page.getByRole('link', { name: /Book this table/ }).count()).toBe(0)
  })

  it('books a fee above the limit only after that fee is accepted on the page', async () => {
    const { id, venue, date } = await watchedLunch(24)
    expect(await sandbox.addSlot(lunchTable(venue, date, { kind: 'fee', feePerPerson: 50, cutoffHours: 24 }))).toBe(true)
    await waitForText(`/requests/${id}`, 'Book this table')
    await page
      .getByRole('link', { name: /Book this table/ })
      .first()
      .click()
    await page.waitForURL(/\/book\?table=/)
    expect(await page.locator('main').innerText()).toContain('costs $50 per person')
    await screenshotsOf('book-this-table-fee')

    // Unaccepted, the form does not go: the acceptance is required.
    await page.getByRole('button', { name: 'Book this table' }).click()
    expect((await requestView(id)).status).toBe('active')
    await page.getByLabel(/I accept the \$50 per person cancellation fee/).check()
    await page.getByRole('button', { name: 'Book this table' }).click()
    const outcome = await waitForText(new URL(page.url()).pathname + new URL(page.url()).search, 'Booked and verified')
    expect(outcome).toContain('Booked and verified')
    expect((await requestView(id)).status).toBe('confirmed')
  })
})
