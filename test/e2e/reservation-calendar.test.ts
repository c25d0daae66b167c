// A confirmed reservation as a diner meets it: the request page and the view
// show the restaurant's address, the time in the venue's zone, party, seating, the fee and the
// free-cancellation deadline and the manage link; the .ics download and the calendar feed parse
// with ical.js (Mozilla's RFC 5545 parser) and carry an alarm before that deadline; the feed's
// secret URL is shown once and a reset ends the old one. The requests list shows the booked table.

import ICAL from 'ical.js'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { sandboxControl } from '../../sandbox/control-client'
import { callApi, dateIn, type Json, waitForRequest } from './api'
import { launchBrowser, screenshotBoth } from './browser'
import { connectPlatform, createRequest, createToken, dinnerAt, findVenue, lunchTable, type Venue } from './diner'
import { newUser } from './pages'

const baseUrl = inject('baseUrl')
const sandbox = sandboxControl({ fetcher: globalThis, baseUrl: inject('sandboxUrl') })
let browser: Browser
let context: BrowserContext
let page: Page
let token = ''
let venue: Venue
let requestId = ''
let reservation: Json = {}

function parseCalendar(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text))
  return calendar.getAllSubcomponents('vevent')
}

beforeAll(async () => {
  browser = await launchBrowser()
  context = await browser.newContext({ acceptDownloads: true })
  page = await context.newPage()
  const email = await newUser(page, baseUrl)
  await connectPlatform(page, baseUrl, `cal-${email}`)
  token = await createToken(page, baseUrl, 'Calendar assistant')
  venue = await findVenue(baseUrl, token, 'Marrow & Smoke')
})
afterAll(async () => {
  await browser?.close()
})

describe('a confirmed reservation', () => {
  it('books a table with a cancellation fee and shows every detail on the request page and in the view', async () => {
    // Lunch at a dinner-only restaurant: no table until the sandbox drops one.
    const date = dateIn(venue.time_zone, 8)
    const spec = dinnerAt(venue, 'auto_book', [8], { title: 'Anniversary lunch', earliest_time: '12:00', latest_time: '14:00' })
    const created = await createRequest(baseUrl, token, spec)
    requestId = String(created.id)
    await page.goto(String(created.action_url))
    const approvedAt = Date.now()
    await page.getByRole('button', { name: 'Approve' }).click()
    await page.waitForURL(/done=approved/)
    await waitForRequest(
      baseUrl,
      token,
      requestId,
      (v) => typeof v.last_checked_at === 'string' && Date.parse(v.last_checked_at) >= approvedAt,
    )
    const table = lunchTable(venue, date, { kind: 'fee', feePerPerson: 10, cutoffHours: 24 })
    expect(await sandbox.addSlot(table)).toBe(true)
    const booked = await waitForRequest(baseUrl, token, requestId, (v) => v.status === 'confirmed', 120_000)
    reservation = (booked.reservations as Json[])[0] ?? {}
    expect(reservation).toMatchObject({
      verified: true,
      venue_name: 'Marrow & Smoke',
      time_zone: 'America/New_York',
      date,
      time: '12:30',
      party_size: 2,
      seating: 'Booth',
      cancellation_fee_per_person: 10,
    })
    expect(String(reservation.address)).toMatch(/Main St, New York, NY$/)
    const startsAt = Date.parse(String(reservation.starts_at))
    expect(String(reservation.starts_at)).toMatch(new RegExp(`^${date}T12:30:00-0[45]:00$`))
    expect(Date.parse(String(reservation.free_cancellation_until))).toBe(startsAt - 24 * 3_600_000)

    await page.goto(`${baseUrl}/requests/${requestId}`)
    const facts = page.locator('.reservation .facts')
    const fact = (name: string) => facts.locator(`dt:text-is("${name}") + dd`).innerText()
    // The dinner in its restaurant's zone, first.
    expect(await page.locator('.reservation h3').innerText()).toMatch(
      /^Marrow & Smoke, [A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}(, \d{4})? · 12:30 PM ET$/,
    )
    expect(await fact('Where')).toBe(reservation.address)
    expect(await fact('Party')).toBe('2 people')
    expect(await fact('Seating')).toBe('Booth')
    expect(await fact('Cancellation')).toMatch(
      // The deadline is a moment: in the viewer's zone, named.
      /^Free to cancel until [A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}(, \d{4})? · \d{1,2}:\d{2} [AP]M \S+; after that the restaurant charges \$10 per person\.$/,
    )
    expect(await page.getByRole('link', { name: 'Manage or cancel it on the platform' }).getAttribute('href')).toBe(reservation.manage_url)
    expect(await page.locator('.next-step').innerText()).toContain('your table is booked.')
    await screenshotBoth(page, 'request-confirmed-details')

    // The booked notice (item 2) carries the same details: seating, party, fee and deadline.
    await page.goto(`${baseUrl}/notifications`)
    const notice = page.locator('.item', { hasText: 'Booked and verified: Marrow & Smoke' })
    expect(await notice.locator('.body-text').innerText()).toMatch(
      // Names the dinner first; every time in the one style, zone "ET".
      /^Anniversary lunch for 2\. Your table at Marrow & Smoke on .* · 12:30 PM ET for 2 \(Booth\) is on your platform account\. Cancelling late costs \$10 per person; free until .* · 12:30 PM ET\. Manage or cancel it there\.$/,
    )
    await screenshotBoth(page, 'notifications-booked')
  })

  it('downloads an .ics that parses, with the details and an alarm before the free-cancellation deadline', async () => {
    await page.goto(`${baseUrl}/requests/${requestId}`)
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Add to my calendar' }).click()])
    expect(download.suggestedFilename()).toBe(`tablewatch-reservation-${String(reservation.reservation_id)}.ics`)
    const stream = await download.createReadStream()
    const chunks: Buffer[] = []
    for await (const chunk of stream) chunks.push(chunk as Buffer)
    const [vevent, ...others] = parseCalendar(Buffer.concat(chunks).toString('utf8'))
    expect(others).toHaveLength(0)
    if (!vevent) throw new Error('no VEVENT')
    const event = new ICAL.Event(vevent)
    expect(event.summary).toBe('Dinner at Marrow & Smoke')
    expect(event.location).toBe(reservation.address)
    expect(event.startDate.toJSDate().getTime()).toBe(Date.parse(String(reservation.starts_at)))
    expect(event.description).toContain(String(reservation.manage_url))
    expect(event.description).toContain('$10 per person')
    const alarm = vevent.getFirstSubcomponent('valarm')
    if (!alarm) throw new Error('no VALARM')
    expect(alarm.getFirstPropertyValue('action')).toBe('DISPLAY')
    const trigger = alarm.getFirstPropertyValue('trigger')
    if (!(trigger instanceof ICAL.Time)) throw new Error(`trigger is not an absolute time: ${String(trigger)}`)
    const deadline = Date.parse(String(reservation.free_cancellation_until))
    expect(trigger.toJSDate().getTime()).toBe(deadline - 3 * 3_600_000)

    // Only the owner can download it.
    const stranger = await browser.newContext()
    const strangerPage = await stranger.newPage()
    await newUser(strangerPage, baseUrl)
    const refused = await strangerPage.request.get(`${baseUrl}/reservations/${String(reservation.reservation_id)}.ics`)
    expect(refused.status()).toBe(404)
    await stranger.close()
  })

  it('makes a calendar feed whose secret URL the Calendar page (in the navigation) shows again, and a reset ends the old URL', async () => {
    await page.goto(`${baseUrl}/calendar`)
    await page.getByRole('button', { name: 'Get my calendar link' }).click()
    await page.waitForLoadState('load')
    const url = (await page.locator('#feed-url').innerText()).trim()
    expect(url).toMatch(new RegExp(`^${baseUrl}/calendar/feed/twc_[0-9A-Za-z]+\\.ics$`))
    expect(await page.getByRole('link', { name: 'Subscribe in your calendar app' }).getAttribute('href')).toBe(
      url.replace(/^http:/, 'webcal:'),
    )
    await screenshotBoth(page, 'calendar-feed-made')

    // A calendar app fetches it without any session.
    const feed = await fetch(url)
    expect(feed.status).toBe(200)
    expect(feed.headers.get('content-type')).toContain('text/calendar')
    const events = parseCalendar(await feed.text()).map((v) => new ICAL.Event(v))
    expect(events.map((e) => e.summary)).toEqual(['Dinner at Marrow & Smoke'])
    expect(events[0]?.component.getFirstSubcomponent('valarm')).not.toBeNull()

    // Home lists the upcoming reservation with its .ics and the platform link.
    await page.goto(`${baseUrl}/`)
    const upcoming = page.locator('section:has(#upcoming-heading) .home-item', { hasText: 'Marrow & Smoke' })
    expect(await upcoming.getByRole('link', { name: 'Add to my calendar' }).getAttribute('href')).toMatch(/^\/reservations\/\d+\.ics$/)
    expect(await upcoming.getByRole('link', { name: 'Open on the platform' }).getAttribute('href')).toBe(
      'https://resy.com/account/reservations-and-notify',
    )
    await screenshotBoth(page, 'home-upcoming')
    // The Calendar page is in the navigation, and shows the same address again.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Calendar' }).click()
    await page.waitForURL(`${baseUrl}/calendar`)
    expect((await page.locator('#feed-url').innerText()).trim()).toBe(url)
    await page.getByRole('button', { name: 'Make a new calendar link' }).click()
    await page.waitForLoadState('load')
    const fresh = (await page.locator('#feed-url').innerText()).trim()
    expect(fresh).not.toBe(url)
    expect((await fetch(url)).status).toBe(404)
    expect((await fetch(fresh)).status).toBe(200)
  })

  it('shows the booked table on its card in the requests list, under Finished', async () => {
    const open = await createRequest(baseUrl, token, dinnerAt(venue, 'alert_only', [50], { title: 'Still looking' }))
    await page.goto(`${baseUrl}/requests`)
    const openItems = page.locator('section:has(#open-heading) .item')
    const finishedItems = page.locator('section:has(#finished-heading) .item')
    expect(await openItems.locator('.item-title').allInnerTexts()).toContain('Still looking')
    const card = finishedItems.filter({ hasText: 'Anniversary lunch' })
    expect(await card.locator('.booked-table').innerText()).toMatch(
      /^Booked: Marrow & Smoke, [A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}(, \d{4})? · 12:30 PM ET, 2 people, Booth\.$/,
    )
    await screenshotBoth(page, 'requests-open-finished')
    await callApi(baseUrl, token, `/requests/${String(open.id)}/stop`, { method: 'POST' })
  })
})
