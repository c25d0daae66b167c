// The whole story in a browser, against the sandbox platform: sign up, connect the platform,
// create a token, an assistant creates an auto_book request by REST for a window with no table,
// the user approves it at its action_url and sees it watching; then the sandbox drops a table
// into the window (its control API, from Node) and the service books it and verifies it.

import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { sandboxControl } from '../../sandbox/control-client'
import { callApi, dateIn, type Json, waitForRequest } from './api'
import { launchBrowser, screenshotBoth } from './browser'
import { createToken, dinnerAt, lunchTable } from './diner'
import { confirmStep, newUser } from './pages'

const baseUrl = inject('baseUrl')
// The sandbox world the service books in: the harness made this origin its PLATFORM_BASE_URL.
const sandbox = sandboxControl({ fetcher: globalThis, baseUrl: inject('sandboxUrl') })
let browser: Browser
let context: BrowserContext
let page: Page
let token = ''
const platformEmail = `diner-${crypto.randomUUID().slice(0, 6)}@example.com`

interface Venue {
  venue_id: number
  time_zone: string
}

/** Marrow & Smoke, found as an assistant finds it. Its sandbox tables are for dinner, 17–22 h. */
async function marrow(): Promise<Venue> {
  const search = await callApi(baseUrl, token, '/restaurants?q=Marrow')
  expect(search.status).toBe(200)
  return (search.body.restaurants as Venue[])[0] as Venue
}

/**
 * An assistant's spec: a sandbox restaurant with plenty of tables, four days from `firstDay`
 * days ahead, 17–22 h. Each auto_book request gets its own days: the same dinner twice is refused.
 */
async function dinnerSpec(mode: 'auto_book' | 'alert_only', firstDay = 1): Promise<Json> {
  const days = [0, 1, 2, 3].map((d) => firstDay + d)
  return dinnerAt(await marrow(), mode, days, { title: 'Steak night' })
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

/** What the request's page shows now: its status badge and its reservation items' labels. */
async function detailPage(id: string): Promise<{ status: string; reservations: string[] }> {
  await page.goto(`${baseUrl}/requests/${id}`)
  return {
    status: (await page.locator('.page-head .status').innerText()).trim(),
    reservations: await page.locator('#reservation-heading + .items .item-head .status').allInnerTexts(),
  }
}

describe('from sign-up to a verified booking', () => {
  it('signs up, connects the sandbox platform and creates a token', async () => {
    await newUser(page, baseUrl)
    await page.goto(`${baseUrl}/settings`)
    await page.getByLabel('Platform email').fill(platformEmail)
    await page.getByLabel('Platform password').fill('sandbox-password-1')
    await page.getByLabel(/I understand that the platform may deactivate my account/).check()
    const loginsBefore = (await sandbox.calls()).login ?? 0
    await page.getByRole('button', { name: 'Connect' }).click()
    await page.waitForURL(/done=connected/)
    // The service signed in on the sandbox world the tests control (same host name).
    expect((await sandbox.calls()).login).toBeGreaterThan(loginsBefore)
    token = await createToken(page, baseUrl, 'Flow assistant')
    expect(token).toMatch(/^spt_/)
  })

  it('approves an auto_book request at its action_url, watches, and books and verifies the table the sandbox drops', async () => {
    // Lunch at a dinner-only restaurant, on a day no other request of this user asks for: the
    // sandbox has no table in the window (and its demo mode, off here, adds none by itself).
    const venue = await marrow()
    const date = dateIn(venue.time_zone, 5)
    const lunch = (slots: { time: string }[]) => slots.filter((s) => s.time >= '12:00' && s.time <= '14:00')
    expect(lunch(await sandbox.slots(venue.venue_id, date))).toEqual([])
    const spec = {
      ...(await dinnerSpec('auto_book')),
      title: 'Business lunch',
      dates: [date],
      earliest_time: '12:00',
      latest_time: '14:00',
    }
    const created = await createRequest(spec)
    expect(created.status).toBe('needs_approval')
    const id = String(created.id)

    await page.goto(String(created.action_url))
    expect(await page.locator('h1').innerText()).toBe('Approve this booking request?')
    expect(await page.locator('.facts.spec').innerText()).toContain('Marrow & Smoke')
    await screenshotBoth(page, 'approve')
    const approvedAt = Date.now()
    await page.getByRole('button', { name: 'Approve' }).click()
    await page.waitForURL(`${baseUrl}/requests/${id}?done=approved`)
    expect(await page.locator('.alert-success').innerText()).toContain('Approved.')

    // Approval subscribes the request and its venue-day is checked at once; that check finds
    // nothing, so the request hears nothing: active, no reservation, last_checked_at set.
    const polled = (v: Json) => typeof v.last_checked_at === 'string' && Date.parse(v.last_checked_at) >= approvedAt
    const watched = await waitForRequest(baseUrl, token, id, polled, 30_000)
    expect(watched.status).toBe('active')
    expect(watched.reservations).toEqual([])
    expect(await detailPage(id)).toEqual({ status: 'Watching', reservations: [] })
    expect(await page.locator('#found-summary').innerText()).toBe('No table yet. You get an alert the moment one opens.')
    await screenshotBoth(page, 'request-watching')

    // The sandbox drops a free table (no fee, no deposit) into the window.
    const table = lunchTable(venue, date)
    expect(await sandbox.addSlot(table)).toBe(true)

    // The page, reloaded until it says Booked: never Booked without a verified reservation,
    // and nothing but Watching or Being verified before that.
    const before = new Set<string>()
    const deadline = Date.now() + 90_000
    let shown = await detailPage(id)
    while (shown.status !== 'Booked') {
      before.add(shown.status)
      if (Date.now() > deadline) throw new Error(`request ${id} not confirmed in time; the page shows ${JSON.stringify(shown)}`)
      await new Promise((ok) => setTimeout(ok, 1_000))
      shown = await detailPage(id)
    }
    expect(shown.reservations).toEqual(['Booked and verified'])
    for (const status of before) expect(['Watching', 'Being verified']).toContain(status)
    expect(await page.locator('#reservation-heading').innerText()).toBe('Your table')
    expect(await page.locator('#reservation-heading + .items h3').innerText()).toMatch(/^Marrow & Smoke, .* · 12:30 PM ET$/)
    await screenshotBoth(page, 'request-confirmed')

    const booked = (await callApi(baseUrl, token, `/requests/${id}`)).body
    expect(booked.status).toBe('confirmed')
    const reservations = booked.reservations as Json[]
    expect(reservations).toHaveLength(1)
    expect(reservations[0]).toMatchObject({
      verified: true,
      venue_id: venue.venue_id,
      date,
      time: '12:30',
      party_size: 2,
      seating: 'Booth',
    })
    expect(reservations[0]?.cancellation_fee_per_person).toBe(0)

    // The platform's own record: exactly one booking on this account, the dropped table.
    const ledger = (await sandbox.ledger()).filter((b) => b.email === platformEmail)
    expect(ledger).toHaveLength(1)
    const { venueId, day, time, seating } = table
    expect(ledger[0]).toMatchObject({ venueId, day, time, seating, partySize: 2, policy: { kind: 'free' } })
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
    await confirmStep(page, 'Revoke token Flow assistant', 'Revoke token')
    await page.waitForURL(/revoked=1/)
    await page.goto(`${baseUrl}/requests/${id}`)
    expect(await page.locator('.page-head .status').innerText()).toBe('Revoked')
    await screenshotBoth(page, 'request-revoked')
  })
})
