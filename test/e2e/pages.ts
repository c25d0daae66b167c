// What a person does on the pages, as steps the browser tests share.

import type { Page } from 'playwright-core'
import { expect } from 'vitest'

export const PASSWORD = 'correct horse battery staple'

export function freshEmail(label = 'user'): string {
  return `${label}-${crypto.randomUUID().slice(0, 8)}@example.com`
}

/**
 * Submits the sign-up form, then follows the confirmation link that the "check your
 * inbox" page shows in local development and presses its button: a new account lands signed in
 * on the home page. An address that already has an account gets no link and stays on that page.
 */
export async function signUpSignedIn(page: Page, baseUrl: string, email: string, password = PASSWORD): Promise<void> {
  await page.goto(`${baseUrl}/signup`)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Create account' }).click()
  await page.waitForLoadState('load')
  const link = page.locator('a[href*="/signup/confirm?"]')
  const someoneTried = page.getByText('Someone tried to create an account')
  // The mail is written in the background: reload until it is there. A loaded machine (the whole
  // suite on two cores) can take seconds, so wait up to 20 s, and say so if it never comes.
  const deadline = Date.now() + 20_000
  while ((await link.count()) === 0) {
    if ((await someoneTried.count()) > 0) return
    if (Date.now() > deadline) throw new Error(`the "check your inbox" page never showed the sign-up mail for ${email}`)
    await page.waitForTimeout(250)
    await page.reload()
  }
  await link.first().click()
  await page.waitForLoadState('load')
  await page.getByRole('button', { name: 'Create my account' }).click()
  await page.waitForLoadState('load')
}

/** Signs out from the navigation: in the header row on a wide screen, under More in the phone's tab bar. */
export async function signOut(page: Page, baseUrl: string): Promise<void> {
  const more = page.locator('.nav-more > summary')
  if (await more.isVisible()) await more.click()
  await page.getByRole('button', { name: 'Sign out' }).click()
  await page.waitForURL(`${baseUrl}/`)
}

/** Whether the page shows the signed-in navigation (the Requests tab or link, at any width). */
export async function signedIn(page: Page): Promise<boolean> {
  return page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Requests' }).isVisible()
}

/** An account for tests that sign in by themselves: signs up, then out again if signed in. */
export async function signUp(page: Page, baseUrl: string, email: string, password = PASSWORD): Promise<void> {
  await signUpSignedIn(page, baseUrl, email, password)
  if (await signedIn(page)) await signOut(page, baseUrl)
}

export async function signIn(page: Page, baseUrl: string, email: string, password = PASSWORD): Promise<void> {
  await page.goto(`${baseUrl}/signin`)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForLoadState('load')
}

/** Signs up (which signs in); ends on the home page, signed in. */
export async function newUser(page: Page, baseUrl: string): Promise<string> {
  const email = freshEmail()
  await signUpSignedIn(page, baseUrl, email)
  expect(await signedIn(page)).toBe(true)
  return email
}

/** The text of the page's error alert. */
export async function errorAlert(page: Page): Promise<string> {
  return (await page.locator('.alert-error').innerText()).trim()
}

/**
 * An action that cannot be undone: its link opens the confirmation step (a page of its own),
 * whose button acts. Returns once the confirmation was submitted.
 */
export async function confirmStep(page: Page, link: string | RegExp, confirm: string): Promise<void> {
  await page.getByRole('link', { name: link }).click()
  await page.waitForLoadState('load')
  await page.getByRole('button', { name: confirm, exact: true }).click()
  await page.waitForLoadState('load')
}
