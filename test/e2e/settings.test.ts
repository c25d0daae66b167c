// Settings in a real browser: the webhook test reaches a real receiver, and the platform
// connection goes through the sandbox platform.
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchBrowser, screenshotBoth } from './browser'
import { newUser } from './pages'

const baseUrl = inject('baseUrl')
let browser: Browser
let page: Page
let receiver: Server
/** What the local receiver was sent, by path: each test saves a path of its own, so none reads another's. */
const received: { path: string | undefined; contentType: string | undefined; body: unknown }[] = []

async function readBody(req: IncomingMessage): Promise<string> {
  let text = ''
  for await (const chunk of req) text += String(chunk)
  return text
}

beforeAll(async () => {
  receiver = createServer(async (req, res) => {
    received.push({ path: req.url, contentType: req.headers['content-type'], body: JSON.parse(await readBody(req)) })
    res.writeHead(req.url === '/gone' ? 410 : 200).end('ok')
  })
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok))
  browser = await launchBrowser()
  page = await (await browser.newContext()).newPage()
  await newUser(page, baseUrl)
})
afterAll(async () => {
  await browser?.close()
  await new Promise((ok) => receiver.close(ok))
})

/** Saves the local receiver's `path` as the webhook, then sends it a test from the page. */
async function saveAndTestWebhook(path: string): Promise<void> {
  await page.goto(`${baseUrl}/settings`)
  await page.getByLabel('Webhook URL (optional)').fill(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}${path}`)
  await page.getByRole('button', { name: 'Save webhook' }).click()
  // The first save answers with the new signing secret on the page itself; later ones redirect to done=saved.
  await page.getByText('Notification settings saved.').waitFor()
  await page.getByRole('button', { name: 'Send a test to my webhook' }).click()
  await page.waitForLoadState('load')
}

describe('settings', () => {
  it('fits a 390 px phone, light and dark: no sideways scroll, selects and number inputs styled like text fields', async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await page.goto(`${baseUrl}/settings`)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
      const look = (selector: string) =>
        page
          .locator(selector)
          .first()
          .evaluate((el) => {
            const s = getComputedStyle(el)
            return {
              border: s.borderTopColor,
              radius: s.borderTopLeftRadius,
              background: s.backgroundColor,
              width: el.getBoundingClientRect().width,
            }
          })
      const text = await look('input[type="url"]')
      for (const other of ['select', 'input[type="number"]']) {
        const seen = await look(other)
        expect({ ...seen, width: undefined }, `${other} (${scheme})`).toEqual({ ...text, width: undefined })
        expect(seen.width).toBeLessThanOrEqual(390)
      }
      await page.screenshot({ path: `screenshots/settings-390-${scheme}.png`, fullPage: true })
    }
    await page.emulateMedia({ colorScheme: 'light' })
    await page.setViewportSize({ width: 1280, height: 800 })
  })

  it('sends a test to the webhook the user saved', async () => {
    await saveAndTestWebhook('/hook')
    expect(await page.locator('.alert-success').innerText()).toBe('Test sent. Your webhook accepted it.')
    expect(received.filter((r) => r.path === '/hook')).toEqual([
      {
        path: '/hook',
        contentType: 'application/json',
        body: {
          version: 1,
          kind: 'test',
          title: 'Tablewatch test',
          text: 'This is a test from Tablewatch. Alerts about your requests will arrive like this.',
          link: `${baseUrl}/notifications`,
          request_id: null,
          sent_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          groups: [],
        },
      },
    ])
  })

  it("never shows the receiver's status code, which would make the test a port scanner", async () => {
    await saveAndTestWebhook('/gone')
    const notice = await page.locator('.alert-error').innerText()
    expect(notice).toBe('Your webhook did not accept the test. Check the address and the receiving service.')
    expect(await page.locator('main').innerText()).not.toContain('410')
  })

  it('connects the sandbox platform account after the risk is accepted', async () => {
    await page.goto(`${baseUrl}/settings`)
    await page.getByLabel('Platform email').fill('diner@example.com')
    await page.getByLabel('Platform password').fill('sandbox-password-1')
    await page.getByRole('button', { name: 'Connect' }).click()
    await page.waitForLoadState('load')
    expect(await page.locator('.field-error').innerText()).toBe('Confirm that you accept the risk to connect')
    expect(await page.getByLabel('Platform email').inputValue()).toBe('diner@example.com')
    expect(await page.getByLabel('Platform password').inputValue()).toBe('')
    await page.getByLabel('Platform password').fill('sandbox-password-1')
    await page.getByLabel(/I understand that the platform may deactivate my account/).check()
    await page.getByRole('button', { name: 'Connect' }).click()
    await page.waitForURL(/done=connected/)
    expect(await page.locator('.alert-success').innerText()).toBe('Your platform account is connected.')
    expect(await page.locator('.facts').innerText()).toContain('Connected as')
    await screenshotBoth(page, 'settings-connected')
  })
})
