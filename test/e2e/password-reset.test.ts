// Password reset by email and the sign-in page's reason (issue 25, item 5), in a real browser at
// 390 px and 1280 px, light and dark; axe checks every page when the browser closes.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchBrowser, screenshotBoth } from './browser'
import { connectPlatform, createRequest, createToken, dinnerAt, findVenue } from './diner'
import { freshEmail, PASSWORD, signIn, signUpSignedIn } from './pages'

const baseUrl = inject('baseUrl')
const NEW_PASSWORD = 'a brand new passphrase for dinner'
let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

/** Screenshots at both widths in light and dark, and no sideways scroll at 390 px. */
async function showBoth(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await screenshotBoth(page, `${name}-${scheme}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 390, height: 844 })
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await page.setViewportSize({ width: 1280, height: 800 })
}

/** The link in the mail the local "check your inbox" page shows; it is written in the background. */
async function mailedLink(page: Page, pattern: string): Promise<string> {
  const link = page.locator(`a[href*="${pattern}"]`)
  for (let i = 0; i < 80 && (await link.count()) === 0; i++) {
    await page.waitForTimeout(250)
    await page.reload()
  }
  return (await link.first().getAttribute('href')) ?? ''
}

describe('password reset', () => {
  it('mails a link that sets a new password once and signs out every browser', async () => {
    const email = freshEmail('reset')
    const elsewhere = await (await browser.newContext()).newPage()
    await signUpSignedIn(elsewhere, baseUrl, email)
    await elsewhere.goto(`${baseUrl}/settings`)
    expect(new URL(elsewhere.url()).pathname).toBe('/settings')

    const page = await (await browser.newContext()).newPage()
    await page.goto(`${baseUrl}/signin`)
    await page.getByRole('link', { name: 'Forgot password?' }).click()
    await page.waitForURL(`${baseUrl}/password-reset`)
    await showBoth(page, 'password-reset-form')
    await page.getByLabel('Email').fill(email)
    await page.getByRole('button', { name: 'Send me a link' }).click()
    await page.waitForURL(`${baseUrl}/password-reset/sent`)
    expect(await page.locator('.alert').innerText()).toContain('If the address you typed has an account')
    const link = await mailedLink(page, '/password-reset/set?t=')
    expect(link).not.toBe('')
    await showBoth(page, 'password-reset-sent')

    await page.goto(link)
    expect(await page.locator('h1').innerText()).toBe('Choose a new password')
    await showBoth(page, 'password-reset-set')
    await page.getByLabel('New password').fill(NEW_PASSWORD)
    await page.getByRole('button', { name: 'Set new password' }).click()
    await page.waitForURL(`${baseUrl}/signin?reset=1`)
    expect(await page.locator('.alert-success').innerText()).toContain('Every browser was signed out, and every personal access token')
    await showBoth(page, 'password-reset-done')

    // The other browser was signed out; the link does not work twice; the new password signs in.
    await elsewhere.goto(`${baseUrl}/settings`)
    expect(new URL(elsewhere.url()).pathname).toBe('/signin')
    await page.goto(link)
    expect(await page.locator('h1').innerText()).toBe('This link no longer works')
    expect(await page.locator('main').innerText()).toContain('It was used already, has expired or is not complete')
    expect(await page.getByRole('button', { name: 'Send me a new link' }).count()).toBe(1)
    await signIn(page, baseUrl, email, PASSWORD)
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0)
    await signIn(page, baseUrl, email, NEW_PASSWORD)
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(1)
    await elsewhere.context().close()
    await page.context().close()
  })

  it('answers an address without an account with the same page', async () => {
    const page = await (await browser.newContext()).newPage()
    await page.goto(`${baseUrl}/password-reset`)
    await page.getByLabel('Email').fill(freshEmail('nobody'))
    await page.getByRole('button', { name: 'Send me a link' }).click()
    await page.waitForURL(`${baseUrl}/password-reset/sent`)
    expect(await page.locator('.alert').innerText()).toContain('If the address you typed has an account')
    await page.context().close()
  })
})

describe.runIf(inject('sandbox'))('the sign-in page', () => {
  it('says why it asks when an approval link sends a signed-out diner there: the dinner only from the mail link', async () => {
    const page = await (await browser.newContext()).newPage()
    const email = freshEmail('reason')
    await signUpSignedIn(page, baseUrl, email)
    await connectPlatform(page, baseUrl, `reason-${email}`)
    const token = await createToken(page, baseUrl, 'Reason assistant')
    const venue = await findVenue(baseUrl, token, 'Palisade Grill')
    const created = await createRequest(baseUrl, token, dinnerAt(venue, 'auto_book', [5], { title: 'Birthday', party_size: 6 }))

    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL(`${baseUrl}/`)

    // Signed out, the approval link is a stranger's: the page says why, and nothing of the dinner.
    const approve = `${baseUrl}/requests/${String(created.id)}/approve`
    await page.goto(approve)
    expect(new URL(page.url()).pathname).toBe('/signin')
    expect(await page.locator('main').innerText()).toContain('Sign in to approve or decline a booking request.')
    expect(await page.locator('body').innerText()).not.toContain('Birthday')
    await showBoth(page, 'sign-in-reason')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(approve)
    expect(await page.locator('main').innerText()).toContain('Birthday')

    // The approval mail's own link names the dinner (its words are sealed into the link).
    await page.goto(`${baseUrl}/outbox`)
    const mailLink = page.locator('.email-body').filter({ hasText: 'Birthday for 6' }).first()
    const fromMail = /https?:\/\/\S+\/approve\?\S+/.exec(await mailLink.innerText())?.[0] ?? ''
    expect(fromMail).toContain('hint=')
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL(`${baseUrl}/`)
    await page.goto(fromMail)
    expect(new URL(page.url()).pathname).toBe('/signin')
    expect(await page.locator('main').innerText()).toMatch(
      /Sign in to approve Birthday for 6 at Palisade Grill · [A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}\./,
    )
    await showBoth(page, 'sign-in-reason-from-mail')
    await page.context().close()
  })
})
