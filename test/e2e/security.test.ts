// The sign-in and security page in a real browser: changing the password signs out
// every other browser and keeps this one; "sign out everywhere" ends this one too. Two browser
// contexts are two devices of the same person.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest'
import { launchBrowser } from './browser'
import { freshEmail, PASSWORD, signIn, signUp } from './pages'

const baseUrl = inject('baseUrl')
const NEW_PASSWORD = 'another horse battery staple'
let browser: Browser
let contexts: BrowserContext[] = []

async function device(): Promise<Page> {
  const context = await browser.newContext({ baseURL: baseUrl })
  contexts.push(context)
  return context.newPage()
}

/** One person signed in on two devices. */
async function twoDevices(): Promise<{ email: string; laptop: Page; phone: Page }> {
  const email = freshEmail()
  const laptop = await device()
  const phone = await device()
  await signUp(laptop, baseUrl, email)
  await signIn(laptop, baseUrl, email)
  await signIn(phone, baseUrl, email)
  return { email, laptop, phone }
}

/** Loads a page that needs a session; true when the browser was sent to sign in instead. */
async function signedOut(page: Page, path: string): Promise<boolean> {
  await page.goto(`${baseUrl}${path}`)
  return new URL(page.url()).pathname === '/signin'
}

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})
beforeEach(() => {
  contexts = []
})
afterEach(async () => {
  for (const context of contexts) await context.close()
})

describe('sign-in and security', () => {
  it('changing the password signs out the other device and keeps this one', async () => {
    const { email, laptop, phone } = await twoDevices()
    expect(await signedOut(phone, '/settings')).toBe(false)

    await laptop.goto(`${baseUrl}/settings`)
    await laptop.getByRole('link', { name: 'Change your password, or sign out everywhere' }).click()
    await laptop.getByLabel('Current password').fill('not the password at all')
    await laptop.getByLabel('New password').fill(NEW_PASSWORD)
    await laptop.getByRole('button', { name: 'Change password' }).click()
    await laptop.waitForLoadState('load')
    expect(await laptop.locator('#current_password-error').innerText()).toBe('That is not your current password')

    await laptop.getByLabel('Current password').fill(PASSWORD)
    await laptop.getByLabel('New password').fill(NEW_PASSWORD)
    await laptop.getByRole('button', { name: 'Change password' }).click()
    await laptop.waitForURL(/\/settings\/security\?done=password/)
    expect(await laptop.locator('.alert-success').innerText()).toBe('Password changed. Every other session was signed out.')

    expect(await signedOut(phone, '/settings')).toBe(true)
    expect(await signedOut(laptop, '/settings')).toBe(false)
    await signIn(phone, baseUrl, email, NEW_PASSWORD)
    expect(await signedOut(phone, '/settings')).toBe(false)
  })

  it('"sign out everywhere" ends every session, this one included', async () => {
    const { laptop, phone } = await twoDevices()

    await laptop.goto(`${baseUrl}/settings/security`)
    await laptop.getByRole('button', { name: 'Sign out everywhere' }).click()
    await laptop.waitForURL(/\/signin\?signed_out=everywhere/)
    expect(await laptop.locator('.alert-success').innerText()).toContain('You are signed out everywhere')
    expect(await signedOut(laptop, '/settings')).toBe(true)
    expect(await signedOut(phone, '/settings')).toBe(true)
  })
})
