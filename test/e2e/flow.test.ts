// The whole story in a browser, against the sandbox platform: sign up, connect the platform,
// create a token, an assistant creates an auto_book request by REST, the user approves it at
// its action_url, and the service books a table and verifies it.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { callApi, dateIn, waitForRequest, type Json } from './api'
import { launchBrowser, screenshotBoth } from './browser'
import { newUser } from './pages'

const baseUrl = inject('baseUrl')
let browser: Browser
let context: BrowserContext
let page: Page
let token = ''

async function createToken(name: string): Promise<string> {
  await page.goto(`${baseUrl}/assistants`)
  await page.getByLabel('Name').fill(name)
  await page.getByRole('button', { name: 'Create token' }).click()
  return (await page.locator('#new-token-value').innerText()).trim()
}

/**
 * An assistant's spec: a sandbox restaurant with plenty of tables, four days from `firstDay`
 * days ahead, 17–22 h. Each auto_book request gets its own days: the same dinner twice is refused.
 */
async function dinnerSpec(mode: 'auto_book' | 'alert_only', firstDay = 1): Promise<Json> {
  const search = await callApi(baseUrl, token, '/restaurants?q=Marrow')
  expect(search.status).toBe(200)
  const venue = (search.body.restaurants as Json[])[0] as { venue_id: number; time_zone: string }
  return {
    title: 'Steak night',
    venue_ids: [venue.venue_id],
    dates: [0, 1, 2, 3].map((d) => dateIn(venue.time_zone, firstDay + d)),
    earliest_time: '17:00',
    latest_time: '22:00',
    timezone: venue.time_zone,
    party_size: 2,
    mode,
    max_cancellation_fee_per_person: 25,
    fee_review_hours: 3,
    expires_at: new Date(Date.now() + 2 * 86_400_000).toISOString(),
  }
}

async function createRequest(spec: Json): Promise<Json> {
  expect((await callApi(baseUrl, token, '/requests/preview', { method: 'POST', body: spec })).status).toBe(200)
  const created = await callApi(baseUrl, token, '/requests', { method: 'POST', body: spec, idempotencyKey: `e2e-${crypto.randomUUID()}` })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  return created.body
}

beforeAll(async () => {
  browser = await launchBrowser()
  context = await browser.newContext()
  page = await context.newPage()
})
afterAll(async () => {
  await browser?.close()
})

describe.runIf(inject('sandbox'))('from sign-up to a verified booking', () => {
  it('signs up, connects the sandbox platform and creates a token', async () => {
    await newUser(page, baseUrl)
    await page.goto(`${baseUrl}/settings`)
    await page.getByLabel('Platform email').fill(`diner-${crypto.randomUUID().slice(0, 6)}@example.com`)
    await page.getByLabel('Platform password').fill('sandbox-password-1')
    await page.getByLabel(/I understand that the platform may deactivate my account/).check()
    await page.getByRole('button', { name: 'Connect' }).click()
    await page.waitForURL(/done=connected/)
    token = await createToken('Flow assistant')
    expect(token).toMatch(/^spt_/)
  })

  it('approves an auto_book request at its action_url, which then books and verifies a table', async () => {
    const created = await createRequest(await dinnerSpec('auto_book'))
    expect(created.status).toBe('needs_approval')
    const id = String(created.id)

    await page.goto(String(created.action_url))
    expect(await page.locator('h1').innerText()).toBe('Approve this booking request?')
    expect(await page.locator('.facts.spec').innerText()).toContain('Marrow & Smoke')
    await screenshotBoth(page, 'approve')
    await page.getByRole('button', { name: 'Approve' }).click()
    await page.waitForURL(`${baseUrl}/requests/${id}?done=approved`)
    expect(await page.locator('.alert-success').innerText()).toContain('Approved.')
    const afterApproval = (await callApi(baseUrl, token, `/requests/${id}`)).body
    expect(['active', 'awaiting_verification', 'confirmed']).toContain(afterApproval.status)

    const booked = await waitForRequest(baseUrl, token, id, (v) => v.status === 'confirmed')
    const reservations = booked.reservations as { verified: boolean }[]
    expect(reservations).toHaveLength(1)
    expect(reservations[0]?.verified).toBe(true)

    await page.goto(`${baseUrl}/requests/${id}`)
    expect(await page.locator('.page-head .status').innerText()).toBe('Confirmed')
    expect(await page.getByText('Booked and verified', { exact: true }).count()).toBe(1)
    await screenshotBoth(page, 'request-confirmed')
  })

  it('refuses the approval page to another user', async () => {
    const created = await createRequest({ ...(await dinnerSpec('auto_book', 10)), party_size: 4, title: 'Family dinner' })
    const stranger = await browser.newContext()
    const strangerPage = await stranger.newPage()
    await newUser(strangerPage, baseUrl)
    const res = await strangerPage.goto(String(created.action_url))
    expect(res?.status()).toBe(404)
    expect(await strangerPage.locator('h1').innerText()).toBe('Page not found')
    await stranger.close()
    await callApi(baseUrl, token, `/requests/${String(created.id)}/stop`, { method: 'POST' })
  })

  it('shows the current revision when the approval link is stale', async () => {
    const spec = { ...(await dinnerSpec('auto_book', 20)), party_size: 3, title: 'Changed plans' }
    const created = await createRequest(spec)
    const id = String(created.id)
    const updated = await callApi(baseUrl, token, `/requests/${id}`, {
      method: 'PUT',
      body: { revision: 1, spec: { ...spec, party_size: 5 } },
      idempotencyKey: `e2e-${crypto.randomUUID()}`,
    })
    expect(updated.body.revision).toBe(2)
    await page.goto(String(created.action_url))
    expect(await page.locator('.alert-info').innerText()).toContain('This request changed after the link was made.')
    expect(await page.locator('.facts.spec').innerText()).toContain('5 people')
    await screenshotBoth(page, 'approve-stale')
    await callApi(baseUrl, token, `/requests/${id}/stop`, { method: 'POST' })
  })

  it('revoking the token moves its open requests to revoked', async () => {
    const created = await createRequest({ ...(await dinnerSpec('alert_only')), title: 'Just tell me' })
    const id = String(created.id)
    await page.goto(`${baseUrl}/assistants`)
    await page.getByRole('button', { name: 'Revoke token Flow assistant' }).click()
    await page.waitForURL(/revoked=1/)
    await page.goto(`${baseUrl}/requests/${id}`)
    expect(await page.locator('.page-head .status').innerText()).toBe('Revoked')
    await screenshotBoth(page, 'request-revoked')
  })
})
