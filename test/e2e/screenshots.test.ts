// Screenshots of every page at phone and desktop width, into screenshots/ (kept out of git),
// for a person to look at. Each step also checks the page shows what it is for.

import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchBrowser, screenshotBoth } from './browser'
import { executeSql, literal } from './d1'
import { confirmStep, errorAlert, freshEmail, PASSWORD, signIn, signUp } from './pages'

const baseUrl = inject('baseUrl')
let browser: Browser
let page: Page

beforeAll(async () => {
  browser = await launchBrowser()
  page = await (await browser.newContext({ baseURL: baseUrl })).newPage()
})
afterAll(async () => {
  await browser?.close()
})

async function shoot(path: string, name: string, heading: string | RegExp): Promise<void> {
  await page.goto(`${baseUrl}${path}`)
  expect(await page.locator('h1').first().innerText()).toMatch(heading)
  await screenshotBoth(page, name)
}

describe('screenshots', () => {
  it('of the signed-out pages', async () => {
    await shoot('/', 'home', 'A table when one opens up')
    await shoot('/signin', 'signin', 'Sign in')
    await shoot('/signup', 'signup', 'Create your account')
    await shoot('/developers', 'developers', 'Developers')
    await shoot('/no-such-page', 'not-found', 'Page not found')
  })

  it('of the forms with their errors', async () => {
    const email = freshEmail()
    await signUp(page, baseUrl, email)
    await screenshotBoth(page, 'signin-after-signup')
    await signIn(page, baseUrl, email, 'wrong password here')
    expect(await errorAlert(page)).toBe('Email or password is incorrect.')
    await screenshotBoth(page, 'signin-error')
    await page.goto(`${baseUrl}/signup`)
    await page.getByLabel('Email').fill('not-an-email')
    await page.getByLabel('Password').fill('short')
    await page.getByRole('button', { name: 'Create account' }).click()
    await page.waitForLoadState('load')
    expect(await page.locator('.field-error').count()).toBe(2)
    await screenshotBoth(page, 'signup-errors')
  })

  it('of the signed-in pages', async () => {
    const email = freshEmail()
    await signUp(page, baseUrl, email)
    await signUp(page, baseUrl, email) // a second sign-up of the same email mails the owner (outbox)
    await signIn(page, baseUrl, email, PASSWORD)
    // An alert as the watcher writes it, so the inbox and the header badge have something to show.
    const user = `(select id from users where email = ${literal(email)})`
    await executeSql(
      `insert into notifications (user_id, dedupe_key, kind, title, body, link, created_at) values ` +
        `(${user}, 'shot-1', 'alert', 'A table at Lilia matches your request', 'Lilia (Brooklyn) · Saturday, December 5 · 19:00 · 2 people · indoor', '/notifications', ${Date.now()}), ` +
        `(${user}, 'shot-2', 'alert', 'A table at Via Carota matches your request', 'Via Carota (West Village) · Sunday, December 6 · 20:15 · 2 people · any seating', '/notifications', ${Date.now() - 3_600_000})`,
    )
    await shoot('/', 'home-signed-in', 'A table when one opens up')
    await shoot('/assistants', 'assistants-empty', 'Assistants')
    await page.getByLabel('Name').fill('Claude on my laptop')
    await page.getByRole('button', { name: 'Create token' }).click()
    await page.locator('#new-token-value').waitFor()
    await screenshotBoth(page, 'assistants-new-token')
    await page.getByLabel('Name').fill('Phone assistant')
    await page.getByRole('button', { name: 'Create token' }).click()
    await confirmStep(page, 'Revoke token Phone assistant', 'Revoke token')
    await page.waitForURL(/revoked=1/)
    await page.locator('details.past summary').click()
    await screenshotBoth(page, 'assistants-list')
    await shoot('/settings', 'settings', 'Settings')
    expect(await page.locator('.badge').innerText()).toBe('2')
    // Viewing the inbox reads it: the badge clears, and what was new is marked.
    await shoot('/notifications', 'notifications', 'Notifications')
    expect(await page.locator('.badge').count()).toBe(0)
    expect(await page.locator('.status-unread').allInnerTexts()).toEqual(['New', 'New'])
    await shoot('/outbox', 'outbox', 'Outbox')
    expect(await page.locator('.item-title').innerText()).toBe('Someone tried to create an account with your email')
    await page.goto(`${baseUrl}/assistants`)
    await page.locator('form[action="/assistants/tokens"] input[name="_csrf"]').evaluate((input) => input.remove())
    await page.getByRole('button', { name: 'Create token' }).click()
    await page.waitForLoadState('load')
    expect(await page.locator('h1').innerText()).toBe('This form has expired')
    await screenshotBoth(page, 'csrf-refused')
  })
})
