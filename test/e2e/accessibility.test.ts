// axe-core itself (accessibility.ts audits every page the e2e files open when they close their
// browser): it must report a page with violations, and the dark colour scheme must pass too.

import AxeBuilder from '@axe-core/playwright'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { audit } from './accessibility'
import { launchBrowser, screenshotBoth } from './browser'
import { newUser } from './pages'

const baseUrl = inject('baseUrl')
let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

describe('axe-core in the e2e suite', () => {
  it('reports the violations of a page that has them', async () => {
    const html =
      '<!doctype html><html><head><title>Probe</title></head><body><main><img src="/favicon.svg"><button></button></main></body></html>'
    const violations = await audit(browser, [{ url: `${baseUrl}/axe-probe`, status: 200, html }])
    expect(violations.map((v) => v.rule).sort()).toEqual(expect.arrayContaining(['button-name', 'html-has-lang', 'image-alt']))
  })
})

describe('dark colour scheme and favicon', () => {
  it('follows prefers-color-scheme: dark with no axe violation, and every page names the favicon', async () => {
    const context = await browser.newContext({ colorScheme: 'dark', baseURL: baseUrl })
    const page = await context.newPage()
    await page.goto(`${baseUrl}/`)
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(20, 23, 26)')
    const icon = await page.locator('link[rel="icon"]').getAttribute('href')
    expect(icon).toBe('/favicon.svg')
    const favicon = await fetch(`${baseUrl}${icon}`)
    expect(favicon.status).toBe(200)
    expect(favicon.headers.get('content-type')).toContain('image/svg+xml')
    await newUser(page, baseUrl)
    for (const path of ['/', '/signin', '/requests', '/assistants', '/settings', '/notifications', '/developers']) {
      if (path === '/signin') continue // signed in: it redirects
      await page.goto(`${baseUrl}${path}`)
      const results = await new AxeBuilder({ page }).analyze()
      expect(
        results.violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        path,
      ).toEqual([])
    }
    await page.goto(`${baseUrl}/settings`)
    await screenshotBoth(page, 'settings-dark')
    await context.close()
  })
})
