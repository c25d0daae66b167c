// The approval page: what changed since the version the user saw or approved
// (old → new), the worst-case fee total, which assistant asked and which platform account
// books; and a link to a request that can no longer be approved says so and what to do.

import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { callApi, type Json, waitForRequest } from './api'
import { launchBrowser, screenshotBoth } from './browser'
import { connectPlatform, createRequest, createToken, dinnerAt, findVenue, type Venue } from './diner'
import { newUser } from './pages'

const baseUrl = inject('baseUrl')
let browser: Browser
let page: Page
let token = ''
let venue: Venue
let account = ''

async function update(id: string, revision: number, spec: Json): Promise<Json> {
  const res = await callApi(baseUrl, token, `/requests/${id}`, {
    method: 'PUT',
    body: { revision, spec },
    idempotencyKey: `e2e-${crypto.randomUUID()}`,
  })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body
}

const changes = async () =>
  Object.fromEntries(
    await page
      .locator('.changes .facts dt')
      .evaluateAll((dts) => dts.map((dt) => [dt.textContent ?? '', dt.nextElementSibling?.textContent?.trim() ?? ''])),
  )

beforeAll(async () => {
  browser = await launchBrowser()
  page = await (await browser.newContext()).newPage()
  const email = await newUser(page, baseUrl)
  await connectPlatform(page, baseUrl, `approve-${email}`)
  account = (await page.locator('.facts dt:text-is("Connected as") + dd').innerText()).trim()
  token = await createToken(page, baseUrl, 'Approval assistant')
  venue = await findVenue(baseUrl, token, 'Cassia Room')
})
afterAll(async () => {
  await browser?.close()
})

describe('the approval page', () => {
  it('names the assistant, the platform account and the worst-case fee; then shows what changed, old → new', async () => {
    // An early-morning window at a dinner restaurant: nothing to book while the test looks on.
    const spec = dinnerAt(venue, 'auto_book', [20], {
      title: 'Team breakfast',
      earliest_time: '05:00',
      latest_time: '05:30',
      max_cancellation_fee_per_person: 25,
    })
    const created = await createRequest(baseUrl, token, spec)
    const id = String(created.id)
    await page.goto(String(created.action_url))
    expect(await page.locator('#asked-by').innerText()).toBe('Approval assistant (personal access token)')
    expect(await page.locator('#books-with').innerText()).toBe(`Your platform account ${account}`)
    expect(await page.locator('#worst-case').innerText()).toMatch(/^\$50 \(\$25 × 2 people\) if you cancel after/)
    expect(await page.locator('.changes').count()).toBe(0) // the first version: nothing to compare with

    // The assistant changes the party and the fee limit before the user approves.
    const v2 = await update(id, 1, { ...spec, party_size: 4, max_cancellation_fee_per_person: 30 })
    await page.goto(String(created.action_url)) // the old link: revision 1
    expect(await page.locator('#changes-heading').innerText()).toBe('What changed since you last saw it')
    const seen = await changes()
    expect(seen.Party).toBe('2 people → 4 people')
    expect(seen['Fee limits']).toMatch(/at most \$25 per person.* → .*at most \$30 per person/)
    expect(Object.keys(seen).sort()).toEqual(['Fee limits', 'Party'])
    expect(await page.locator('.changes del').first().innerText()).toBe('2 people')
    expect(await page.locator('.changes ins').first().innerText()).toBe('4 people')
    expect(await page.locator('#worst-case').innerText()).toMatch(/^\$120 \(\$30 × 4 people\)/)
    await screenshotBoth(page, 'approve-changes')

    // At every width Approve and Decline are on screen at once, before scrolling past the summary
    // (a sticky action bar; above the tab bar on a phone).
    for (const size of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(size)
      await page.evaluate(() => window.scrollTo(0, 0))
      for (const action of [page.getByRole('button', { name: 'Approve' }), page.getByRole('link', { name: 'Decline…' })]) {
        const box = await action.boundingBox()
        const shown = box && box.y >= 0 && box.y + box.height <= size.height
        expect(shown, `${await action.innerText()} on screen at ${size.width} px`).toBe(true)
      }
    }
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(844 * 1.5) // the summary is long
    await page.screenshot({ path: 'screenshots/approve-sticky-actions-phone.png' })
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.screenshot({ path: 'screenshots/approve-sticky-actions-phone-dark.png' })
    await page.emulateMedia({ colorScheme: 'light' })
    await page.setViewportSize({ width: 1280, height: 800 })

    await page.getByRole('button', { name: 'Approve' }).click()
    await page.waitForURL(/done=approved/)
    // One consistent message: approved and watching (no table to book in this window).
    expect(await page.locator('.alert-success').allInnerTexts()).toEqual([
      'Approved. Tablewatch is watching and books the first table that fits, within your limits.',
    ])
    expect((await waitForRequest(baseUrl, token, id, (v) => v.status !== 'needs_approval')).status).toBe('active')

    // A later change needs approval again, and is compared with the approved version.
    const v3 = await update(id, Number(v2.revision), { ...spec, party_size: 3, max_cancellation_fee_per_person: 30 })
    expect(v3.status).toBe('needs_approval')
    await page.goto(String(v3.action_url))
    expect(await page.locator('#changes-heading').innerText()).toBe('What changed since you approved it')
    expect(await changes()).toEqual({ Party: '4 people → 3 people' })
    await callApi(baseUrl, token, `/requests/${id}/stop`, { method: 'POST' })
  })

  it('says plainly when the link can no longer be approved, and what to do next', async () => {
    const created = await createRequest(baseUrl, token, dinnerAt(venue, 'auto_book', [22], { title: 'Changed my mind' }))
    await callApi(baseUrl, token, `/requests/${String(created.id)}/stop`, { method: 'POST' })
    await page.goto(String(created.action_url))
    expect(await page.locator('h1').innerText()).toBe('Booking request')
    const info = await page.locator('.alert-info').innerText()
    expect(info).toMatch(/^This request was declined or stopped /)
    expect(info).toContain('ask your assistant for a new request')
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0)
    await screenshotBoth(page, 'approve-closed')
  })

  it('an expired approval link says it expired, that nothing was booked, and what to do next, at phone and desktop width', async () => {
    const expiresAt = new Date(Date.now() + 6_000).toISOString()
    const created = await createRequest(baseUrl, token, dinnerAt(venue, 'auto_book', [23], { title: 'Too late', expires_at: expiresAt }))
    const id = String(created.id)
    expect(created.status).toBe('needs_approval')
    await waitForRequest(baseUrl, token, id, (v) => v.status === 'expired', 60_000)
    for (const size of [
      { width: 390, height: 844 },
      { width: 1280, height: 800 },
    ]) {
      await page.setViewportSize(size)
      await page.goto(String(created.action_url))
      const notice = page.locator('.alert-info')
      expect(await notice.innerText()).toMatch(
        /^This approval link has expired: the request ended [A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}(, \d{4})? · \d{1,2}:\d{2} [AP]M \S+ without your approval\.\s+Nothing was watched or booked\. If you still want a table, ask your assistant for a new request and approve that one\. See the request\.$/,
      )
      // Plainly: the notice is on the first screen, and there is nothing left to approve or decline.
      const top = (await notice.boundingBox())?.y ?? Number.POSITIVE_INFINITY
      expect(top).toBeLessThan(size.height)
      expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0)
      expect(await page.getByRole('link', { name: 'Decline…' }).count()).toBe(0)
      await notice.getByRole('link', { name: 'See the request' }).click()
      await page.waitForURL(`${baseUrl}/requests/${id}`)
      expect(await page.locator('.page-head .status').innerText()).toBe('Expired')
    }
    await page.goto(String(created.action_url))
    await screenshotBoth(page, 'approve-expired')
  })
})
