// Screenshots of every page at phone and desktop width, into screenshots/ (kept out of git,
// emptied when a run starts, so it holds the run's artifacts), for a person to look at. Each step
// also checks the page shows what it is for.

import { execFile } from 'node:child_process'
import { readdir, readFile, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchBrowser, SCREENSHOT_DIR, screenshotBoth } from './browser'
import { executeSql, literal } from './d1'
import { confirmStep, errorAlert, freshEmail, PASSWORD, signIn, signUp } from './pages'

const baseUrl = inject('baseUrl')
const ROOT = resolve(import.meta.dirname, '../..')
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
    await shoot('/', 'home-signed-in', 'What is next')
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
    await shoot('/notifications', 'notifications', 'Inbox')
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
  it('keeps each screenshot of this run as an artifact in screenshots/, at phone and desktop width, out of git', async () => {
    await shoot('/developers', 'artifact-developers', 'Developers')
    // A PNG's width is the big-endian integer at byte 16 (its IHDR chunk).
    const width = async (file: string) => (await readFile(join(SCREENSHOT_DIR, file))).readUInt32BE(16)
    expect(await width('artifact-developers-phone.png')).toBe(390)
    expect(await width('artifact-developers-desktop.png')).toBe(1280)
    // Only this run's pictures: the set-up emptied the directory, so nothing in it is older.
    const files = await readdir(SCREENSHOT_DIR)
    expect(files.length).toBeGreaterThanOrEqual(2)
    for (const file of files) expect((await stat(join(SCREENSHOT_DIR, file))).mtimeMs, file).toBeGreaterThanOrEqual(inject('runStartedAt'))
    // git ignores them (exit 0 from check-ignore), so a run never adds pictures to a commit.
    const ignored = await promisify(execFile)('git', ['check-ignore', join(SCREENSHOT_DIR, 'artifact-developers-phone.png')], { cwd: ROOT })
    expect(ignored.stdout.trim()).toBe(join(SCREENSHOT_DIR, 'artifact-developers-phone.png'))
  })
})
