// The diner's glance, in a real browser, as a diner in Los Angeles watching dinners in New York:
// every page a diner reaches (home, inbox, request, approval, settings, assistants, calendar,
// pairing, reset, error pages) passes axe at 390 and 1280 px, light and dark; and each of the
// things a walk of those pages found is fixed where the diner looks: new tables alerted at once,
// tables first, an alert that says what it holds, the settings link that lands on the platform, a
// booked request that reads as booked, the approval's words and its bar, everyday words, one time
// style, error pages with a next step, and a phone navigation that leaves the screen to the page.
// With GLANCE_SHOTS set, every audited state is also saved there at each size and scheme.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { sandboxControl } from '../../sandbox/control-client'
import { callApi, dateIn, type Json, waitForRequest } from './api'
import { launchBrowser } from './browser'
import {
  alertsOf,
  connectPlatform,
  createRequest,
  createToken,
  dinnerAt,
  findVenue,
  lunchTable,
  pressDemo,
  until,
  type Venue,
} from './diner'
import { freshEmail, newUser, PASSWORD, signUpSignedIn } from './pages'

const baseUrl = inject('baseUrl')
const sandbox = sandboxControl({ fetcher: globalThis, baseUrl: inject('sandboxUrl') })
const SHOTS = process.env.GLANCE_SHOTS ? join(process.env.GLANCE_SHOTS, 'pages') : null
const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1280, height: 800 }
let browser: Browser
let page: Page
let token = ''
const violations: string[] = []

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms))
/** Longer than the pages' colour transitions (0.15 s in public/styles.css). */
const TRANSITION_MS = 250

/**
 * axe on the page as it is now, at 390 and 1280 px, light and dark (the page is laid out again
 * at each); every violation is kept for the file's last test. Ends at 390 px, light.
 */
async function audit(label: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size)
      await page.mouse.move(0, 0) // no element stays hovered from the last click
      await sleep(TRANSITION_MS) // colours reach the new scheme and width before axe reads them
      const results = await new AxeBuilder({ page }).analyze()
      for (const v of results.violations)
        violations.push(`${label} ${size.width} ${colorScheme}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
      if (SHOTS) {
        await mkdir(SHOTS, { recursive: true })
        await page.screenshot({ path: join(SHOTS, `${label}-${size.width}-${colorScheme}.png`), fullPage: true })
      }
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize(PHONE)
}

async function open(path: string, label: string): Promise<void> {
  await page.goto(`${baseUrl}${path}`)
  await audit(label)
}

/** The words a diner reads: the main column and the navigation. */
const shown = async () => `${await page.locator('nav[aria-label="Main"]').innerText()}\n${await page.locator('main').innerText()}`

/** Words from the code and the API that a diner should never have to read. */
const JARGON = [
  /restaurant-date/i,
  /\bdigests?\b/i,
  /per poll/i,
  /\bversion \d/i,
  /\.ics\b/,
  /feed address/i,
  /\bin the cloud\b/i,
  /(restaurants|requests|reservations):(read|write)/,
  /\bauto_book\b|\balert_only\b/,
  /\b\d{4}-\d{2}-\d{2}\b/,
  /Now: /,
]

async function expectEverydayWords(where: string): Promise<void> {
  // Addresses (the calendar link, the platform's pages) are not words to read.
  const text = (await shown()).replace(/\b(https?|webcal):\/\/\S+/g, '')
  for (const word of JARGON) expect(text, `${where}: ${word}`).not.toMatch(word)
  expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Developers' }).count(), where).toBe(0)
}

const top = async (selector: string) => (await page.locator(selector).first().boundingBox())?.y ?? Number.POSITIVE_INFINITY

beforeAll(async () => {
  browser = await launchBrowser()
  const context = await browser.newContext({ timezoneId: 'America/Los_Angeles', viewport: PHONE })
  page = await context.newPage()
})
afterAll(async () => {
  await browser?.close()
})

describe("the diner's glance", () => {
  let marrow: Venue
  let pomelo: Venue

  it('gives a phone a tab bar at the bottom, and "Connect it in Settings" lands on the platform section, which comes first', async () => {
    await newUser(page, baseUrl)
    await page.goto(`${baseUrl}/`)
    // The header is one short row; the navigation is one row of five tabs at the bottom of the screen.
    const header = await page.locator('.site-header').boundingBox()
    expect(header?.height ?? 999).toBeLessThan(PHONE.height * 0.07)
    const tabs = page.locator('.nav-tabs > li:visible')
    expect(await tabs.count()).toBe(5)
    const boxes = await tabs.evaluateAll((items) => items.map((li) => li.getBoundingClientRect()))
    expect(new Set(boxes.map((b) => Math.round(b.top))).size).toBe(1)
    expect(Math.round(boxes[0]?.bottom ?? 0)).toBeGreaterThanOrEqual(PHONE.height - 80)
    expect(await page.locator('.nav-tabs').innerText()).toMatch(/Home\s+Requests\s+Inbox\s+Calendar\s+More/)
    // More opens without a script and holds Assistants, Settings and Sign out.
    await page.locator('.nav-more > summary').click()
    expect(await page.locator('.nav-more-list').innerText()).toMatch(/Assistants\s+Settings\s+Sign out/)
    await page.locator('.nav-more > summary').click()
    await audit('home-new')
    await expectEverydayWords('home')

    await page.getByRole('link', { name: 'Connect it in Settings' }).click()
    await page.waitForLoadState('load')
    expect(new URL(page.url()).hash).toBe('#platform')
    // The platform section is the first thing on the page, on the first screen.
    expect(await page.locator('main h2').first().innerText()).toBe('Reservation platform')
    expect(await top('#platform')).toBeLessThan(PHONE.height / 3)
    await audit('settings-not-connected')
    await connectPlatform(page, baseUrl, `glance-${crypto.randomUUID().slice(0, 6)}@example.com`)
    // Connected, it moves below the alerts; developer and device items sit under Advanced.
    expect(await page.locator('main h2').first().innerText()).not.toBe('Reservation platform')
    expect(await top('#alerts')).toBeLessThan(await top('#platform'))
    expect(await page.locator('#advanced #webhook-heading').count()).toBe(1)
    expect(await page.locator('#advanced #devices-heading').count()).toBe(1)
    await audit('settings')
    await expectEverydayWords('settings')
  })

  it('audits the account pages: assistants, calendar, pairing, security', async () => {
    token = await createToken(page, baseUrl, 'Glance assistant')
    await audit('assistants-new-token')
    await open('/assistants', 'assistants')
    await expectEverydayWords('assistants')
    await page.goto(`${baseUrl}/calendar`)
    await page.getByRole('button', { name: 'Get my calendar link' }).click()
    await page.waitForLoadState('load')
    await audit('calendar')
    await expectEverydayWords('calendar')
    await page.goto(`${baseUrl}/settings`)
    await page.getByRole('button', { name: 'Pair a device' }).click()
    await page.waitForLoadState('load')
    expect(await page.locator('h1').innerText()).toBe('Pair a device')
    await audit('pairing')
    await open('/settings/security', 'security')
    await open('/requests', 'requests-empty')
  })

  it('alerts a new table at once, shows the tables first, and words the alert as what it holds, money per person', async () => {
    marrow = await findVenue(baseUrl, token, 'Marrow')
    pomelo = await findVenue(baseUrl, token, 'Pomelo')
    // Days 12 and 14 at Marrow: the booking tests' lunches there (days 5–7) must never meet these tables.
    const lunch = await createRequest(
      baseUrl,
      token,
      dinnerAt(marrow, 'alert_only', [12], { title: 'Lunch with Sam', earliest_time: '12:00', latest_time: '14:00' }),
    )
    const lunchId = String(lunch.id)
    await waitForRequest(baseUrl, token, lunchId, (v) => typeof v.last_checked_at === 'string')
    await pressDemo(page, baseUrl, lunchId)
    await until('the first alert', 60_000, async () => (await alertsOf(baseUrl, token, lunchId)) >= 1)
    // A second table a moment later, at the same restaurant and date: alerted within the next check.
    const second = await pressDemo(page, baseUrl, lunchId)
    await until('the second alert, at once', 30_000, async () => (await alertsOf(baseUrl, token, lunchId)) >= 2)
    console.log(`glance: second table alerted ${((Date.now() - second) / 1000).toFixed(1)} s after it opened`)
    // The demo's notice names the table in the one time style, the restaurant's zone.
    expect(await page.locator('.alert-success').innerText()).toMatch(
      /Marrow & Smoke, [A-Z][a-z]{2}, [A-Z][a-z]{2} \d+(, \d{4})? · 12:\d{2} PM ET/,
    )

    // A dinner over five dates with many tables, one with a cancellation fee.
    // (The sandbox's seatings start at 17:00: the 16:45 table with a fee is the soonest.)
    const feeTable = lunchTable(pomelo, dateIn(pomelo.time_zone, 3), { kind: 'fee', feePerPerson: 50, cutoffHours: 24 })
    expect(await sandbox.addSlot({ ...feeTable, time: '16:45' })).toBe(true)
    const dinner = await createRequest(
      baseUrl,
      token,
      dinnerAt(pomelo, 'alert_only', [3, 4, 5, 6, 7], { title: 'Dinner with the Parks', earliest_time: '16:45' }),
    )
    const dinnerId = String(dinner.id)
    await until('the dinner alert', 90_000, async () => (await alertsOf(baseUrl, token, dinnerId)) >= 1)

    // Home: each request's tables first, the soonest first.
    await open('/', 'home')
    const items = page.locator('#watching-heading ~ ul .home-item')
    expect(await items.first().locator('.home-title').innerText()).toBe('Dinner with the Parks')
    expect(await items.first().locator('.found-line').innerText()).toMatch(
      /^\d+ tables found · soonest [A-Z][a-z]{2}, [A-Z][a-z]{2} \d+(, \d{4})? · 4:45 PM ET · last found \d+ (s|min) ago$/,
    )
    expect(await page.locator('.home-item', { hasText: 'Lunch with Sam' }).locator('.found-line').innerText()).toMatch(
      /^2 tables found · soonest .* 12:\d{2} PM ET/,
    )
    await expectEverydayWords('home')

    // The inbox: a card that names its request and says what it holds, the soonest few, See all.
    await open('/notifications', 'inbox')
    const card = page.locator('.item', { hasText: 'Dinner with the Parks' }).first()
    const title = await card.locator('.item-title').innerText()
    expect(title).toMatch(
      /^Dinner with the Parks: \d+ tables, [A-Z][a-z]{2}, [A-Z][a-z]{2} \d+(, \d{4})? to [A-Z][a-z]{2}, [A-Z][a-z]{2} \d+(, \d{4})? · soonest/,
    )
    expect(await card.locator('.alert-tables li').count()).toBe(4)
    expect(await card.locator('.alert-tables li').first().innerText()).toContain('$50 per person if you cancel late')
    const total = Number(/: (\d+) tables/.exec(title)?.[1])
    expect(await card.getByRole('link', { name: `See all ${total} tables` }).getAttribute('href')).toBe(`/requests/${dinnerId}#tables`)
    expect((await card.boundingBox())?.height ?? 9999).toBeLessThan(PHONE.height)
    // A moment in the viewer's zone (Los Angeles), the table in the restaurant's (New York).
    expect(await card.locator('.item-meta time').innerText()).toMatch(/ PT$/)
    expect(await card.locator('.alert-tables li').first().innerText()).toMatch(/ ET\b/)
    await expectEverydayWords('inbox')

    // The request page starts with its tables, soonest first; the details fold below.
    await card.getByRole('link', { name: `See all ${total} tables` }).click()
    await page.waitForLoadState('load')
    expect(await top('#tables')).toBeLessThan(await top('.request-status'))
    expect(await top('#tables')).toBeLessThan(PHONE.height / 4)
    expect(await page.locator('#found-summary').innerText()).toMatch(new RegExp(`^${total} tables found · soonest .* 4:45 PM ET`))
    expect(await page.locator('details#details').getAttribute('open')).toBeNull()
    await page.locator('#trace-heading').click()
    expect(await page.locator('.trace time').first().innerText()).toMatch(/ PT$/)
    await audit('request-tables')
    await expectEverydayWords('request')
    await page.goto(`${baseUrl}/requests/${lunchId}`)
    await page.locator('#how-alerts-work > summary').click()
    expect(await page.locator('#how-alerts-work').innerText()).toContain(
      'You get an alert the moment Tablewatch finds a table you have not been told about',
    )
    // The gap, exactly: it only holds a table told before (the default 10 minutes).
    expect(await page.locator('#how-alerts-work').innerText()).toContain(
      'A table that is taken is told again if it comes back, but not within 10 minutes of the alert that told it.',
    )
    await audit('request-lunch')
    for (const id of [lunchId, dinnerId]) await callApi(baseUrl, token, `/requests/${id}/stop`, { method: 'POST' })
    await open(`/requests/${dinnerId}`, 'request-stopped')
  })

  it('words the approval plainly, keeps Approve on screen at every width, and a booked request reads as booked', {
    timeout: 240_000,
  }, async () => {
    const gramercy = await findVenue(baseUrl, token, 'Gramercy')
    const three = await createRequest(
      baseUrl,
      token,
      dinnerAt(gramercy, 'auto_book', [20], { title: 'Birthday', party_size: 3, earliest_time: '05:00', latest_time: '05:30' }),
    )
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size)
      await page.goto(String(three.action_url))
      // The decision bar is on the first screen, before any scrolling.
      const bar = await page.locator('.decision.sticky-actions').boundingBox()
      expect(bar?.y ?? 9999, `${size.width}`).toBeLessThan(size.height - (bar?.height ?? 0) + 1)
      expect(await page.getByRole('button', { name: 'Approve' }).isVisible()).toBe(true)
    }
    const terms = await page.locator('#never-booked').innerText()
    expect(terms).not.toMatch(/large part/i)
    expect(terms).toContain('its rule covers a party of 3 people, and that fee is above your limit')
    expect(terms).toContain('Only for such a table does Tablewatch give the platform your card on file')
    await audit('approval')
    await expectEverydayWords('approval')
    await callApi(baseUrl, token, `/requests/${three.id}/stop`, { method: 'POST' })

    const anniversary = await createRequest(
      baseUrl,
      token,
      dinnerAt(marrow, 'auto_book', [14], { title: 'Anniversary lunch', earliest_time: '12:00', latest_time: '14:00' }),
    )
    const id = String(anniversary.id)
    await page.goto(String(anniversary.action_url))
    await page.getByRole('button', { name: 'Approve' }).click()
    await page.waitForURL(/done=approved/)
    await pressDemo(page, baseUrl, id)
    await waitForRequest(baseUrl, token, id, (v: Json) => v.status === 'confirmed', 120_000)
    await page.goto(`${baseUrl}/requests/${id}`)
    expect(await page.locator('.page-head .status').innerText()).toBe('Booked')
    expect(await page.locator('main h2').first().innerText()).toBe('Your table')
    const text = await page.locator('main').innerText()
    expect(text).not.toMatch(/None yet|No table yet|until you approve|Nothing is watched/)
    expect(await page.locator('.next-step').innerText()).toBe(
      'Next: Nothing to do: your table is booked. Manage or cancel it on the platform.',
    )
    await audit('request-booked')
    await expectEverydayWords('booked request')
    // Its approval notice in the inbox no longer asks for approval.
    await page.goto(`${baseUrl}/notifications`)
    const approval = page.locator('.item', { hasText: 'Approve: Anniversary lunch' })
    expect(await approval.locator('.body-text').innerText()).toBe('You approved it, and the table is booked.')
    expect(await approval.locator('.item-meta .status').innerText()).toBe('Booked')
    await audit('inbox-booked')
  })

  it('gives every error page its next step, and checks a link when its page opens', async () => {
    await open('/no-such-page', 'not-found')
    await open('/requests/sr_nothing_here', 'request-not-found')
    const context = await browser.newContext({ timezoneId: 'America/Los_Angeles', viewport: PHONE })
    const signedIn = page
    page = await context.newPage()
    try {
      for (const [path, label] of [
        ['/', 'welcome'],
        ['/signin', 'signin'],
        ['/signup', 'signup'],
        ['/password-reset', 'reset-ask'],
        ['/developers', 'developers'],
      ] as const)
        await open(path, label)

      // A bad sign-up link says so when it opens, with the way on; no "Create my account".
      await open('/signup/confirm?t=not-a-real-link', 'signup-link-bad')
      expect(await page.locator('main').innerText()).toContain('This link is not valid or has expired')
      expect(await page.getByRole('button', { name: 'Create my account' }).count()).toBe(0)
      expect(await page.getByRole('link', { name: 'Sign up again' }).getAttribute('href')).toBe('/signup')

      // A used reset link offers a new link on the page itself.
      const email = freshEmail('glance')
      await signUpSignedIn(page, baseUrl, email)
      await context.clearCookies()
      await page.goto(`${baseUrl}/password-reset`)
      await page.getByLabel('Email').fill(email)
      await page.getByRole('button', { name: 'Send me a link' }).click()
      await page.waitForLoadState('load')
      const resetLink = page.locator('a[href*="/password-reset/set?"]')
      await until('the reset mail', 20_000, async () => {
        if ((await resetLink.count()) > 0) return true
        await page.reload()
        return false
      })
      const href = new URL(String(await resetLink.first().getAttribute('href')), baseUrl).toString()
      await page.goto(href)
      await audit('reset-set')
      await page.getByLabel('New password').fill(`${PASSWORD} again`)
      await page.getByRole('button', { name: 'Set new password' }).click()
      await page.waitForLoadState('load')
      await page.goto(href)
      expect(await page.locator('h1').innerText()).toBe('This link no longer works')
      await audit('reset-link-used')
      await page.getByLabel('Email').fill(email)
      await page.getByRole('button', { name: 'Send me a new link' }).click()
      await page.waitForLoadState('load')
      expect(await page.locator('h1').innerText()).toBe('Check your inbox')
      await audit('reset-sent')
    } finally {
      await context.close()
      page = signedIn
    }
  })

  it('finds no axe violation on any of these pages, at 390 and 1280 px, light and dark', () => {
    expect(violations).toEqual([])
  })
})
