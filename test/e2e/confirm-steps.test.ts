// Stop, decline, revoke (a token or a paired device) and disconnect ask first: the first click opens a page of its
// own that says what happens, and only its CSRF-protected button acts. Without JavaScript.
// (Disconnecting an OAuth assistant goes through the same step in mcp-oauth.test.ts.)

import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { callApi } from './api'
import { launchBrowser, screenshotBoth } from './browser'
import { connectPlatform, createRequest, createToken, dinnerAt, findVenue } from './diner'
import { newUser } from './pages'

const baseUrl = inject('baseUrl')
let browser: Browser
let page: Page
let token = ''

beforeAll(async () => {
  browser = await launchBrowser()
  page = await (await browser.newContext({ javaScriptEnabled: false })).newPage()
  const email = await newUser(page, baseUrl)
  await connectPlatform(page, baseUrl, `confirm-${email}`)
  token = await createToken(page, baseUrl, 'Confirm assistant')
})
afterAll(async () => {
  await browser?.close()
})

const status = async (id: string) => (await callApi(baseUrl, token, `/requests/${id}`)).body.status

describe('two-step confirmation', () => {
  it('stop: the first click only asks; "Keep watching" changes nothing; the second step stops', async () => {
    const venue = await findVenue(baseUrl, token, 'Bodega Azul')
    const created = await createRequest(baseUrl, token, dinnerAt(venue, 'alert_only', [40], { title: 'Tacos' }))
    const id = String(created.id)
    await page.goto(`${baseUrl}/requests/${id}`)
    await page.getByRole('link', { name: 'Stop watching…' }).click()
    expect(await page.locator('h1').innerText()).toBe('Stop watching “Tacos”?')
    expect(await page.locator('.confirm-step').innerText()).toContain('It never cancels a reservation')
    expect(await status(id)).toBe('active')
    await screenshotBoth(page, 'confirm-stop')
    await page.getByRole('link', { name: 'Keep watching' }).click()
    expect(new URL(page.url()).pathname).toBe(`/requests/${id}`)
    expect(await status(id)).toBe('active')

    await page.getByRole('link', { name: 'Stop watching…' }).click()
    await page.getByRole('button', { name: 'Stop watching' }).click()
    await page.waitForURL(`${baseUrl}/requests/${id}?done=stopped`)
    expect(await status(id)).toBe('stopped')
  })

  it('the confirmation form carries its CSRF token: without it nothing happens', async () => {
    const venue = await findVenue(baseUrl, token, 'Bodega Azul')
    const id = String((await createRequest(baseUrl, token, dinnerAt(venue, 'alert_only', [41]))).id)
    await page.goto(`${baseUrl}/requests/${id}/stop`)
    await page.locator('.confirm-step input[name="_csrf"]').evaluate((input) => input.remove())
    await page.getByRole('button', { name: 'Stop watching' }).click()
    await page.waitForLoadState('load')
    expect(await page.locator('h1').innerText()).toBe('This form has expired')
    expect(await status(id)).toBe('active')
  })

  it('decline asks first, from the approval page', async () => {
    const venue = await findVenue(baseUrl, token, 'Bodega Azul')
    const created = await createRequest(baseUrl, token, dinnerAt(venue, 'auto_book', [42]))
    const id = String(created.id)
    await page.goto(String(created.action_url))
    await page.getByRole('link', { name: 'Decline…' }).click()
    expect(await page.locator('h1').innerText()).toBe('Decline this booking request?')
    expect(await status(id)).toBe('needs_approval')
    await screenshotBoth(page, 'confirm-decline')
    await page.getByRole('button', { name: 'Decline' }).click()
    await page.waitForURL(`${baseUrl}/requests/${id}?done=declined`)
    expect(await status(id)).toBe('stopped')
  })

  it('revoking a token asks first', async () => {
    const other = await createToken(page, baseUrl, 'Spare token')
    await page.goto(`${baseUrl}/assistants`)
    await page.getByRole('link', { name: 'Revoke token Spare token' }).click()
    expect(await page.locator('h1').innerText()).toBe('Revoke the token “Spare token”?')
    expect((await callApi(baseUrl, other, '/capabilities')).status).toBe(200)
    await screenshotBoth(page, 'confirm-revoke-token')
    await page.getByRole('button', { name: 'Revoke token' }).click()
    await page.waitForURL(`${baseUrl}/assistants?revoked=1`)
    expect((await callApi(baseUrl, other, '/capabilities')).status).toBe(401)
  })

  it('revoking a paired device asks first; only the second step ends its credential', async () => {
    await page.goto(`${baseUrl}/settings`)
    await page.getByRole('button', { name: 'Pair a device' }).click()
    const code = (await page.getByTestId('user-code').innerText()).trim()
    const paired = await fetch(`${baseUrl}/device/v1/pair`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ code, name: 'Kitchen laptop' }),
    })
    expect(paired.status).toBe(201)
    const { credential } = (await paired.json()) as { credential: string }
    const credentialWorks = async () =>
      (await fetch(`${baseUrl}/device/v1/connect`, { headers: { Authorization: `Bearer ${credential}` } })).status !== 401
    expect(await credentialWorks()).toBe(true)

    await page.goto(`${baseUrl}/settings`)
    await page.getByRole('link', { name: 'Revoke Kitchen laptop' }).click()
    expect(await page.locator('h1').innerText()).toBe('Revoke the device “Kitchen laptop”?')
    expect(await page.locator('.confirm-step').innerText()).toContain('Its platform sign-in stays on the device')
    await screenshotBoth(page, 'confirm-revoke-device')
    await page.getByRole('link', { name: 'Keep it paired' }).click()
    expect(new URL(page.url()).pathname).toBe('/settings')
    expect(await credentialWorks()).toBe(true)

    await page.getByRole('link', { name: 'Revoke Kitchen laptop' }).click()
    await page.getByRole('button', { name: 'Revoke device' }).click()
    await page.waitForURL(`${baseUrl}/settings?done=device_revoked`)
    expect(await page.locator('.alert-success').innerText()).toContain('The device was revoked')
    expect(await credentialWorks()).toBe(false)
    expect(await page.locator('.devices').count()).toBe(0)
  })

  it('disconnecting the platform asks first', async () => {
    await page.goto(`${baseUrl}/settings`)
    await page.getByRole('link', { name: 'Disconnect…' }).click()
    expect(await page.locator('h1').innerText()).toBe('Disconnect your platform account?')
    await page.getByRole('link', { name: 'Stay connected' }).click()
    expect(new URL(page.url()).pathname).toBe('/settings')
    expect(await page.locator('.facts').first().innerText()).toContain('Connected as')
    await page.getByRole('link', { name: 'Disconnect…' }).click()
    await screenshotBoth(page, 'confirm-disconnect-platform')
    await page.getByRole('button', { name: 'Disconnect' }).click()
    await page.waitForURL(`${baseUrl}/settings?done=disconnected`)
    expect(await page.locator('.alert-success').innerText()).toContain('Disconnected.')
  })
})
