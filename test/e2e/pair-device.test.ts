// Pairing a device opens a page of its own, in a real browser at 390 px and
// 1280 px, light and dark; axe checks the page when the browser closes.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchBrowser, screenshotBoth } from './browser'
import { newUser } from './pages'

const baseUrl = inject('baseUrl')
let browser: Browser
let page: Page

beforeAll(async () => {
  browser = await launchBrowser()
  // The diner is in Denver: the page script reports it, and the expiry is written in Mountain time.
  page = await (await browser.newContext({ timezoneId: 'America/Denver' })).newPage()
  await newUser(page, baseUrl)
})
afterAll(async () => {
  await browser?.close()
})

describe('pairing a device', () => {
  it('opens a page with a large code and its expiry in the diner zone, which fits a phone', async () => {
    await page.goto(`${baseUrl}/settings`)
    await page.getByRole('button', { name: 'Pair a device' }).click()
    await page.waitForLoadState('load')
    expect(await page.locator('h1').innerText()).toBe('Pair a device')
    const code = page.getByTestId('user-code')
    expect((await code.innerText()).trim()).toMatch(/^[A-Z]{4}-[A-Z]{4}$/)
    expect((await page.locator('#pairing-expiry time').innerText()).trim()).toMatch(
      /^[A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}(, \d{4})? · \d{1,2}:\d{2} [AP]M MT$/,
    )
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await page.setViewportSize({ width: 390, height: 844 })
      // Large: at least twice the body text, inside the screen, and the page does not scroll sideways.
      const look = await code.evaluate((el) => ({
        size: Number.parseFloat(getComputedStyle(el).fontSize),
        body: Number.parseFloat(getComputedStyle(document.body).fontSize),
        right: el.getBoundingClientRect().right,
      }))
      expect(look.size).toBeGreaterThanOrEqual(2 * look.body)
      expect(look.right).toBeLessThanOrEqual(390)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
      await screenshotBoth(page, `pair-device-${scheme}`)
    }
    await page.emulateMedia({ colorScheme: 'light' })
    await page.getByRole('link', { name: 'Back to Settings' }).click()
    await page.waitForURL(/\/settings/)
  })
})
