// The other notices a diner needs, as the inbox shows them in a real browser
// at phone and desktop width, produced by the running watcher against the sandbox platform: a
// day before an unapproved request expires, when it expires, when it is revoked (its token
// revoked through the two-step page), when the platform no longer accepts the saved sign-in, and
// when the platform blocks the service's checks.
// (Waiting for approval is in alerts.test.ts, booked in reservation-calendar.test.ts.)

import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { sandboxControl } from '../../sandbox/control-client'
import { DEFAULT_USER_AGENT } from '../../src/platform/user-agent'
import { dateIn, waitForRequest } from './api'
import { launchBrowser, screenshotBoth } from './browser'
import { connectPlatform, createRequest, createToken, dinnerAt, findVenue, type Venue } from './diner'
import { newUser } from './pages'

const baseUrl = inject('baseUrl')
const sandbox = sandboxControl({ fetcher: globalThis, baseUrl: inject('sandboxUrl') })
const DAY_MS = 86_400_000
let browser: Browser
let page: Page
let token = ''
let platformEmail = ''
let venue: Venue

beforeAll(async () => {
  browser = await launchBrowser()
  page = await (await browser.newContext()).newPage()
  const email = await newUser(page, baseUrl)
  platformEmail = `notices-${email}`
  await connectPlatform(page, baseUrl, platformEmail)
  token = await createToken(page, baseUrl, 'Notices assistant')
  venue = await findVenue(baseUrl, token, 'Pomelo')
})
afterAll(async () => {
  await browser?.close()
})

/** The inbox item with this title, once the watcher has written it (reloading the inbox meanwhile). */
async function inboxItem(title: string, timeoutMs = 90_000, on: Page = page) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    await on.goto(`${baseUrl}/notifications`)
    const item = on.locator('.item', { has: on.locator('.item-title', { hasText: title }) })
    if ((await item.count()) > 0) return item.first()
    if (Date.now() > deadline) throw new Error(`no "${title}" in the inbox in time`)
    await new Promise((ok) => setTimeout(ok, 2_000))
  }
}

/** "2026-12-04" as every page and notice writes a day: "Fri, Dec 4". */
const dayWords = (day: string) =>
  new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
    Date.parse(`${day}T12:00:00Z`),
  )

/** The item reads whole at both widths: nothing runs off the side of the page. */
async function readableAtBothWidths(name: string, on: Page = page) {
  for (const size of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    await on.setViewportSize(size)
    expect(await on.evaluate(() => document.documentElement.scrollWidth), `${name} at ${size.width}`).toBeLessThanOrEqual(size.width)
  }
  await screenshotBoth(on, name)
}

describe('the other notices, in the inbox', () => {
  it('a day before an unapproved request expires: when, and the link to approve it', async () => {
    const expiresAt = new Date(Date.now() + DAY_MS + 8_000).toISOString()
    const created = await createRequest(baseUrl, token, dinnerAt(venue, 'auto_book', [5], { title: 'Soon gone', expires_at: expiresAt }))
    const day = dayWords(dateIn(venue.time_zone, 5))
    // Names the dinner: title and party, restaurant, date, time window.
    const item = await inboxItem(`Expires in a day unless you approve it: Soon gone for 2 at ${venue.name} · ${day}`)
    expect(await item.locator('.body-text').innerText()).toMatch(
      new RegExp(
        `^Soon gone for 2 · ${venue.name} · ${day} · 5:00 PM to 10:00 PM [A-Z]{2}\\.\\s+It expires .* and nothing is watched until you approve it\\.$`,
      ),
    )
    expect(await item.locator('.status').last().innerText()).toBe('Waiting for your approval')
    await readableAtBothWidths('notice-expiry-warning')
    await item.getByRole('link', { name: 'Review and approve' }).click()
    await page.waitForLoadState('load')
    expect(page.url()).toBe(String(created.action_url))
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(1)
  })

  it('when a request expires: what happened and what to do next, linking to the request', async () => {
    const expiresAt = new Date(Date.now() + 6_000).toISOString()
    const created = await createRequest(baseUrl, token, dinnerAt(venue, 'auto_book', [6], { title: 'Too late', expires_at: expiresAt }))
    await waitForRequest(baseUrl, token, String(created.id), (v) => v.status === 'expired', 60_000)
    const item = await inboxItem(`Expired: Too late for 2 at ${venue.name} · ${dayWords(dateIn(venue.time_zone, 6))}`)
    expect(await item.locator('.body-text').innerText()).toContain('Ask your assistant for a new request if you still want a table.')
    // The approval notice of the same request no longer asks for approval: it says what became of it.
    const approval = page.locator('.item', { has: page.locator('.item-title', { hasText: 'Approve: Too late for 2' }) })
    expect(await approval.locator('.status').last().innerText()).toBe('Ended')
    expect(await approval.locator('.body-text').innerText()).toBe('It ended without your approval.')
    expect(await approval.getByRole('link', { name: 'Review and approve' }).count()).toBe(0)
    await readableAtBothWidths('notice-expired')
    await item.getByRole('link', { name: 'Open the request' }).click()
    await page.waitForURL(`${baseUrl}/requests/${String(created.id)}`)
    expect(await page.locator('.page-head .status').innerText()).toBe('Expired')
  })

  it('when a request is revoked (its token revoked through the two-step page): the reason', async () => {
    const spare = await createToken(page, baseUrl, 'Spare notices token')
    const created = await createRequest(baseUrl, spare, dinnerAt(venue, 'alert_only', [7], { title: 'Revoked one' }))
    await page.goto(`${baseUrl}/assistants`)
    await page.getByRole('link', { name: 'Revoke token Spare notices token' }).click()
    await page.getByRole('button', { name: 'Revoke token' }).click()
    await page.waitForURL(/revoked=1/)
    const item = await inboxItem(`Ended: Revoked one for 2 at ${venue.name}`)
    expect(await item.getAttribute('class')).toContain('unread')
    expect(await item.locator('.body-text').innerText()).toContain('Ask your assistant for a new request if you still want a table.')
    await readableAtBothWidths('notice-revoked')
    await item.getByRole('link', { name: 'Open the request' }).click()
    await page.waitForURL(`${baseUrl}/requests/${String(created.id)}`)
    expect(await page.locator('.page-head .status').innerText()).toBe('Revoked')
  })

  it('when the platform no longer accepts the saved sign-in: reconnect, and Settings offers it', async () => {
    const day = 9
    const created = await createRequest(
      baseUrl,
      token,
      dinnerAt(venue, 'auto_book', [day], { title: 'Needs a new sign-in', earliest_time: '09:00', latest_time: '10:00' }),
    )
    await page.goto(String(created.action_url))
    await page.getByRole('button', { name: 'Approve' }).click()
    await page.waitForURL(/done=approved/)
    expect(await sandbox.invalidateTokens(platformEmail)).toBeGreaterThan(0)
    expect(
      await sandbox.addSlot({
        venueId: venue.venue_id,
        day: dateIn(venue.time_zone, day),
        time: '09:30',
        seating: 'Bar',
        partyMin: 1,
        partyMax: 6,
        policy: { kind: 'free' },
      }),
    ).toBe(true)
    const item = await inboxItem('Reconnect your platform account to book Needs a new sign-in for 2', 120_000)
    expect(await item.locator('.body-text').innerText()).toMatch(
      new RegExp(
        `^Needs a new sign-in for 2 · ${venue.name} · ${dayWords(dateIn(venue.time_zone, day))} · 9:00 AM to 10:00 AM [A-Z]{2}\\.\\s+` +
          'The platform no longer accepts the saved sign-in, so Tablewatch cannot book this table or any other until you reconnect\\. ' +
          'Watching goes on meanwhile: you are told of the tables it finds\\. Reconnect it in Settings: one short sign-in\\.$',
      ),
    )
    await readableAtBothWidths('notice-reconnect')
    await item.getByRole('link', { name: 'Open' }).click()
    await page.waitForURL(`${baseUrl}/settings#platform`)
    expect(await page.locator('details[open] summary', { hasText: 'Reconnect' }).count()).toBe(1)
  })

  it('when the platform blocks checks: which restaurant and day, what it answered, and that it backs off by itself', async () => {
    // A user of their own (a user hears of blocks at most once in six hours, and this file's user
    // still watches other venues), and a venue no other e2e file watches: its venue-day backs off
    // for 20 minutes after the block.
    const own = await (await browser.newContext()).newPage()
    const email = await newUser(own, baseUrl)
    await connectPlatform(own, baseUrl, `blocked-${email}`)
    const ownToken = await createToken(own, baseUrl, 'Blocked checks assistant')
    const blockedVenue = await findVenue(baseUrl, ownToken, 'Harbor Lantern')
    await sandbox.block({ userAgent: DEFAULT_USER_AGENT, forMs: 90_000, style: 'html_403' })
    try {
      await createRequest(baseUrl, ownToken, dinnerAt(blockedVenue, 'alert_only', [11], { title: 'Blocked checks' }))
      const item = await inboxItem('The platform is blocking checks for now', 90_000, own)
      expect(await item.locator('.body-text').innerText()).toBe(
        `Could not check Harbor Lantern on ${dayWords(dateIn(blockedVenue.time_zone, 11))}: the platform is blocking checks (an HTML page instead of the API). ` +
          'Tablewatch backs off and tries again by itself; you may want to look on the platform yourself meanwhile.',
      )
      await readableAtBothWidths('notice-checks-blocked', own)
    } finally {
      await sandbox.block({ userAgent: DEFAULT_USER_AGENT, forMs: 0 })
    }
  })
})
