// The privacy page in the browser, signed out (connector directories link it before anyone has an
// account): reachable from every page's footer, readable at phone and desktop width.
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchBrowser, screenshotBoth } from './browser'

const baseUrl = inject('baseUrl')
let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

describe('the privacy page', () => {
  it('is linked from the footer and says what is stored, for how long, who sees it and the platform risk', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } })
    await page.goto(`${baseUrl}/signin`)
    await page.locator('footer').getByRole('link', { name: 'Privacy' }).click()
    await page.waitForURL(`${baseUrl}/privacy`)
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Privacy')
    const headings = await page.getByRole('heading', { level: 2 }).allInnerTexts()
    expect(headings).toEqual(['What Tablewatch stores', 'For how long', 'Who sees it', "The platform's terms"])
    const text = await page.locator('main').innerText()
    expect(text).toContain('encrypted at rest')
    expect(text).toContain('may limit or deactivate that account')
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 })
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    }
    await screenshotBoth(page, 'privacy')
    await page.close()
  })
})
