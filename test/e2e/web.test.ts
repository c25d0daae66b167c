// The pages in a real browser against `wrangler dev`: sign-up and sign-in, tokens, CSRF.

import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest'
import { launchBrowser, screenshotBoth } from './browser'
import { confirmStep, errorAlert, freshEmail, newUser, PASSWORD, signIn, signUp, signUpSignedIn } from './pages'

const baseUrl = inject('baseUrl')
let browser: Browser
let context: BrowserContext
let page: Page

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})
beforeEach(async () => {
  context = await browser.newContext({ baseURL: baseUrl })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl })
  page = await context.newPage()
})
afterEach(async () => {
  await context?.close()
})

describe('sign-up and sign-in', () => {
  it('signs up and is signed in at once, with the setup checklist; signs out and in again', async () => {
    const email = freshEmail()
    await signUpSignedIn(page, baseUrl, email)
    expect(new URL(page.url()).pathname).toBe('/')
    expect(await page.locator('.alert-success').innerText()).toBe('Welcome! Your account is ready and you are signed in.')
    expect(await page.locator('footer').innerText()).toContain(`Signed in as ${email}`)
    expect(await page.locator('#setup-heading').innerText()).toBe('Get set up')
    await screenshotBoth(page, 'signed-in-after-signup')
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL(`${baseUrl}/`)
    await signIn(page, baseUrl, email)
    expect(new URL(page.url()).pathname).toBe('/')
    await expect.poll(() => page.locator('footer').innerText()).toContain(`Signed in as ${email}`)
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL(`${baseUrl}/`)
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' }).isVisible()).toBe(true)
  })

  it('returns to the page that asked for sign-in', async () => {
    const email = freshEmail()
    await signUp(page, baseUrl, email)
    await page.goto(`${baseUrl}/settings`)
    expect(new URL(page.url()).pathname).toBe('/signin')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(`${baseUrl}/settings`)
  })

  it('gives the same error for a wrong password and for an unknown email', async () => {
    const email = freshEmail()
    await signUp(page, baseUrl, email)
    await signIn(page, baseUrl, email, 'wrong password here')
    const wrongPassword = await errorAlert(page)
    await signIn(page, baseUrl, freshEmail('nobody'), 'wrong password here')
    const unknownEmail = await errorAlert(page)
    expect(wrongPassword).toBe('Email or password is incorrect.')
    expect(unknownEmail).toBe(wrongPassword)
  })
})

describe('personal access tokens', () => {
  it('creates a token that is shown once, then revokes it', async () => {
    await newUser(page, baseUrl)
    await page.goto(`${baseUrl}/assistants`)
    await page.getByLabel('Name').fill('Claude on my laptop')
    await page.getByRole('button', { name: 'Create token' }).click()
    const token = (await page.locator('#new-token-value').innerText()).trim()
    expect(token).toMatch(/^spt_[0-9A-Za-z]{40,}$/)
    expect(await page.getByText('Never paste it into a chat').isVisible()).toBe(true)
    // The page's script swaps the URL (history.replaceState) once it has loaded.
    await expect.poll(() => new URL(page.url()).pathname).toBe('/assistants')

    await page.getByRole('button', { name: 'Copy' }).click()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token)

    const api = await fetch(`${baseUrl}/api/v1/capabilities`, { headers: { Authorization: `Bearer ${token}` } })
    expect(api.status).toBe(200)

    await page.reload()
    expect(await page.content()).not.toContain(token)
    expect(await page.locator('#new-token-value').count()).toBe(0)
    expect(await page.locator('.items .item').count()).toBe(1)
    expect(await page.locator('.items .item code').first().innerText()).toBe(`${token.slice(0, 8)}…${token.slice(-4)}`)

    await confirmStep(page, 'Revoke token Claude on my laptop', 'Revoke token')
    await page.waitForURL(`${baseUrl}/assistants?revoked=1`)
    expect(await page.locator('.alert-success').innerText()).toContain('Token revoked')
    const revoked = await fetch(`${baseUrl}/api/v1/capabilities`, { headers: { Authorization: `Bearer ${token}` } })
    expect(revoked.status).toBe(401)
    expect(((await revoked.json()) as { code: string }).code).toBe('authorization_revoked')
  })
})

describe('CSRF', () => {
  it('refuses a form whose CSRF token was removed', async () => {
    await newUser(page, baseUrl)
    await page.goto(`${baseUrl}/assistants`)
    await page.getByLabel('Name').fill('Should not exist')
    await page.locator('form[action="/assistants/tokens"] input[name="_csrf"]').evaluate((input) => input.remove())
    await page.getByRole('button', { name: 'Create token' }).click()
    await page.waitForLoadState('load')
    expect(await page.locator('h1').innerText()).toBe('This form has expired')
    await page.goto(`${baseUrl}/assistants`)
    expect(await page.getByText('Should not exist').count()).toBe(0)
  })

  it('refuses a sign-in form without its token', async () => {
    const email = freshEmail()
    await signUp(page, baseUrl, email)
    await page.goto(`${baseUrl}/signin`)
    await page.locator('input[name="_csrf"]').evaluate((input) => input.remove())
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForLoadState('load')
    expect(await page.locator('h1').innerText()).toBe('This form has expired')
    const cookies = await context.cookies()
    expect(cookies.some((c) => c.name === 'tw_session')).toBe(false)
  })
})
