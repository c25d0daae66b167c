// The diner's walk, as screenshots: each of the ten states at
// 390 and 1280 px, light and dark, into GLANCE_SHOTS (outside the repo) as
// NN-<phase>-<width>-<scheme>.png, phase from GLANCE_PHASE ("before" on the old code, "after").
// Runs only when GLANCE_SHOTS is set: it is a camera, the assertions live in the page tests.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, inject, it } from 'vitest'
import { callApi, type Json, waitForRequest } from './api'
import { launchBrowser } from './browser'
import { alertsOf, connectPlatform, createRequest, createToken, dinnerAt, findVenue, pressDemo, until } from './diner'
import { freshEmail, newUser, PASSWORD, signUpSignedIn } from './pages'

const baseUrl = inject('baseUrl')
const DIR = process.env.GLANCE_SHOTS ?? ''
const PHASE = process.env.GLANCE_PHASE ?? 'after'
let browser: Browser
let page: Page
let token = ''

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms))

/** The state on screen, four times: 390 and 1280 px, light and dark; the whole page, or the first screen. */
async function shoot(name: string, options: { firstScreen?: boolean } = {}): Promise<void> {
  await mkdir(DIR, { recursive: true })
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    for (const width of [390, 1280]) {
      const height = width === 390 ? 844 : 800
      await page.setViewportSize({ width, height })
      // The whole page as one tall screen, so what is fixed to the screen's bottom (the phone's tab
      // bar, the Approve bar) is drawn at the bottom, not across the middle.
      const full = options.firstScreen ? height : await page.evaluate(() => document.documentElement.scrollHeight)
      await page.setViewportSize({ width, height: Math.max(height, full) })
      // Transitions finished: a resize would otherwise catch the navigation's colours mid-way.
      await page.screenshot({ path: join(DIR, `${name}-${PHASE}-${width}-${scheme}.png`), animations: 'disabled' })
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 390, height: 844 })
}

beforeAll(async () => {
  browser = await launchBrowser()
  // A diner in Los Angeles, watching dinners in New York.
  const context = await browser.newContext({ timezoneId: 'America/Los_Angeles', viewport: { width: 390, height: 844 } })
  page = await context.newPage()
})
afterAll(async () => {
  await browser?.close()
})

describe.runIf(DIR !== '' && inject('sandbox'))('the diner walk, in screenshots', () => {
  it('shoots the ten states', { timeout: 900_000 }, async () => {
    // 05 and the phone's navigation: a new diner follows "Connect it in Settings".
    await newUser(page, baseUrl)
    await shoot('11', { firstScreen: true })
    await page
      .getByRole('link', { name: /Connect it in Settings|Connect your platform account/ })
      .first()
      .click()
    await page.waitForLoadState('load')
    await shoot('05', { firstScreen: true })
    await connectPlatform(page, baseUrl, `walk-${crypto.randomUUID().slice(0, 6)}@example.com`)
    token = await createToken(page, baseUrl, 'Walk assistant')
    const marrow = await findVenue(baseUrl, token, 'Marrow')
    const pomelo = await findVenue(baseUrl, token, 'Pomelo')
    const gramercy = await findVenue(baseUrl, token, 'Gramercy')

    // 01 and 09: an alert_only lunch alerts once; a second table opens a minute later.
    const lunch = await createRequest(
      baseUrl,
      token,
      dinnerAt(marrow, 'alert_only', [12], { title: 'Lunch with Sam', earliest_time: '12:00', latest_time: '14:00' }),
    )
    const lunchId = String(lunch.id)
    await waitForRequest(baseUrl, token, lunchId, (v) => typeof v.last_checked_at === 'string')
    await pressDemo(page, baseUrl, lunchId)
    await until('the first alert', 60_000, async () => (await alertsOf(baseUrl, token, lunchId)) >= 1)
    await sleep(20_000)
    await pressDemo(page, baseUrl, lunchId)
    await shoot('09')
    await sleep(35_000)
    await page.goto(`${baseUrl}/requests/${lunchId}`)
    await shoot('01')

    // 03 and 04: a dinner over five dates with many open tables: one big alert.
    const dinner = await createRequest(
      baseUrl,
      token,
      dinnerAt(pomelo, 'alert_only', [3, 4, 5, 6, 7], { title: 'Dinner with the Parks', party_size: 2 }),
    )
    const dinnerId = String(dinner.id)
    await until('the dinner alert', 120_000, async () => (await alertsOf(baseUrl, token, dinnerId)) >= 1)
    await page.goto(`${baseUrl}/notifications`)
    await shoot('03')
    await shoot('04', { firstScreen: true })

    // 02: home with what is watched, and the request an alert opens.
    await page.goto(`${baseUrl}/`)
    await shoot('02')
    await page.goto(`${baseUrl}/requests/${dinnerId}`)
    await shoot('02b', { firstScreen: true })

    // 07: the approval page of a party of 3.
    const three = await createRequest(
      baseUrl,
      token,
      dinnerAt(gramercy, 'auto_book', [20], { title: 'Birthday', party_size: 3, earliest_time: '05:00', latest_time: '05:30' }),
    )
    await page.goto(String(three.action_url))
    await shoot('07', { firstScreen: true })
    await shoot('07b')

    // 06: a booked request.
    const booked = await createRequest(
      baseUrl,
      token,
      dinnerAt(marrow, 'auto_book', [14], { title: 'Anniversary lunch', earliest_time: '12:00', latest_time: '14:00' }),
    )
    const bookedId = String(booked.id)
    await page.goto(String(booked.action_url))
    await page.getByRole('button', { name: 'Approve' }).first().click()
    await page.waitForURL(/done=approved/)
    await pressDemo(page, baseUrl, bookedId)
    await waitForRequest(baseUrl, token, bookedId, (v: Json) => v.status === 'confirmed', 120_000)
    await page.goto(`${baseUrl}/requests/${bookedId}`)
    await shoot('06')

    // 08: the words a diner reads on Settings (and the request page).
    await page.goto(`${baseUrl}/settings`)
    await shoot('08')

    // 10: a used reset link, and a bad sign-up link.
    const email = freshEmail('walk')
    const other = await browser.newContext({ timezoneId: 'America/Los_Angeles', viewport: { width: 390, height: 844 } })
    const second = await other.newPage()
    await signUpSignedIn(second, baseUrl, email)
    await other.clearCookies()
    await second.goto(`${baseUrl}/password-reset`)
    await second.getByLabel('Email').fill(email)
    await second.getByRole('button').filter({ hasText: /link/i }).first().click()
    await second.waitForLoadState('load')
    const resetLink = second.locator('a[href*="/password-reset/set?"]')
    await until('the reset mail', 20_000, async () => {
      if ((await resetLink.count()) > 0) return true
      await second.reload()
      return false
    })
    const href = String(await resetLink.first().getAttribute('href'))
    await second.goto(new URL(href, baseUrl).toString())
    await second.getByLabel(/New password/).fill(`${PASSWORD} again`)
    await second
      .getByRole('button')
      .filter({ hasText: /password/i })
      .first()
      .click()
    await second.waitForLoadState('load')
    await second.goto(new URL(href, baseUrl).toString())
    const keep = page
    page = second
    await shoot('10')
    await second.goto(`${baseUrl}/signup/confirm?t=not-a-real-link`)
    await shoot('10b')
    page = keep
    await other.close()
    await callApi(baseUrl, token, `/requests/${lunchId}/stop`, { method: 'POST' })
    await callApi(baseUrl, token, `/requests/${dinnerId}/stop`, { method: 'POST' })
  })
})
