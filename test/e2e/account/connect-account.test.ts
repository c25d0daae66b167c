// Connecting a platform account in a real browser, at 390 and 1280 px (every page axe-checked,
// browser.ts): a password account through /4 (the sandbox's /3 removed), a code-only account by
// the code the sandbox texts (read off the sandbox's phone page, as a diner reads their phone),
// and, with the sandbox in datacenter mode, a cloud sign-in refused with a clear page, then the
// same account connected by code through a real paired `tablewatch-device run` process, and an
// approved auto_book booked and verified: from the cloud while the sandbox lets it book, from the
// device (after the diner chooses it) once the sandbox refuses booking from the cloud too.
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { DEVICE_USER_AGENT } from '../../../device/src/work'
import { sandboxControl } from '../../../sandbox/control-client'
import { callApi, waitForRequest } from '../api'
import { launchBrowser } from '../browser'
import { approvedLunch, createToken, lunchTable, valueWhen } from '../diner'
import { newUser } from '../pages'
import { codeOnlyAccount, passwordAccount, readTextedCode, setCloudRefusals, setPasswordV3 } from '../sandbox-accounts'

const ROOT = resolve(import.meta.dirname, '../../..')
const BIN = join(ROOT, 'device/bin/tablewatch-device.mjs')
const baseUrl = inject('baseUrl')
const sandboxUrl = inject('sandboxUrl')
const sandbox = sandboxControl({ fetcher: globalThis, baseUrl: sandboxUrl })
const WIDTHS = [390, 1280] as const

let browser: Browser
let home = ''
let device: ChildProcess | null = null
let deviceLog = ''

async function pageAt(width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 800 } })
  return context.newPage()
}

/** Nothing scrolls sideways at this width. */
async function fits(page: Page, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
}

async function platformSection(page: Page): Promise<string> {
  await page.goto(`${baseUrl}/settings`)
  return page.locator('section[aria-labelledby="platform-heading"]').innerText()
}

/** Settings → "Text me a code" (or its "through my computer" twin) → the code page. */
async function askForCode(page: Page, mobileNumber: string, button: string | RegExp = 'Text me a code'): Promise<void> {
  await page.goto(`${baseUrl}/settings`)
  await page.getByLabel('Mobile number').fill(mobileNumber)
  await page.getByRole('button', { name: button, exact: typeof button === 'string' }).click()
  await page.waitForLoadState('load')
}

/** The code page: the code off the phone, the risk accepted, Connect; the email if the platform asks. */
async function typeCode(page: Page, phone: Page, mobileNumber: string, email: string): Promise<void> {
  await page.waitForURL(/\/settings\/platform\/code(?:\/check)?$/)
  const code = await readTextedCode(phone, sandboxUrl, mobileNumber)
  await page.getByLabel('Code from the text message').fill(code)
  await page.getByLabel(/I understand that the platform may deactivate my account/).check()
  await page.getByRole('button', { name: 'Connect', exact: true }).click()
  await page.waitForLoadState('load')
  if (page.url().endsWith('/settings/platform/code')) {
    expect(await page.locator('main').innerText()).toContain('The platform asks for the email address of this account')
    await page.getByLabel('Account email').fill(email)
    await page.getByRole('button', { name: 'Connect', exact: true }).click()
  }
  await page.waitForURL(/done=connected/)
}

async function platformEnv(): Promise<Record<string, string>> {
  const vars = await readFile(join(ROOT, 'sandbox/.dev.vars'), 'utf8')
  const apiKey = /^\s*PLATFORM_API_KEY\s*=\s*["']?([^"'\s]+)/m.exec(vars)?.[1] ?? ''
  return { TABLEWATCH_PLATFORM_URL: sandboxUrl, TABLEWATCH_PLATFORM_API_KEY: apiKey }
}

/** Waits for what the device makes happen; a failure shows the device's last output. */
const waitFor = <T>(what: string, get: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 60_000) =>
  valueWhen(what, get, ok, { timeoutMs, context: () => deviceLog.slice(-2000) })

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'tablewatch-connect-'))
  browser = await launchBrowser()
})
afterAll(async () => {
  await setCloudRefusals(sandbox, null).catch(() => {})
  await setPasswordV3(sandbox, true).catch(() => {})
  if (device && device.exitCode === null) device.kill('SIGKILL')
  await browser?.close()
  if (home) await rm(home, { recursive: true, force: true })
})

describe('connecting a platform account', () => {
  for (const width of WIDTHS) {
    it(`connects a password account through /4 at ${width} px`, async () => {
      await setPasswordV3(sandbox, false)
      const page = await pageAt(width)
      await newUser(page, baseUrl)
      const account = await passwordAccount(sandbox)
      await page.goto(`${baseUrl}/settings`)
      await fits(page, width)
      await page.getByLabel('Platform email').fill(account.email)
      await page.getByLabel('Platform password').fill(account.password)
      await page.getByLabel(/I understand that the platform may deactivate my account/).check()
      await page.getByRole('button', { name: 'Connect', exact: true }).click()
      await page.waitForURL(/done=connected/)
      expect(await platformSection(page)).toContain('Connected as')
      await setPasswordV3(sandbox, true)
    })

    it(`connects a code-only account by the code texted to its phone at ${width} px`, async () => {
      const page = await pageAt(width)
      const phone = await pageAt(width)
      await newUser(page, baseUrl)
      const account = await codeOnlyAccount(sandbox)
      // Its password form answers plainly that the account has none, and sends the diner to the code.
      await page.goto(`${baseUrl}/settings`)
      await page.getByLabel('Platform email').fill(account.email)
      await page.getByLabel('Platform password').fill('a guess')
      await page.getByLabel(/I understand that the platform may deactivate my account/).check()
      await page.getByRole('button', { name: 'Connect', exact: true }).click()
      await page.waitForLoadState('load')
      expect(await page.locator('.alert-error').innerText()).toMatch(/no password|did not accept/)

      await askForCode(page, account.mobileNumber)
      expect(await page.getByTestId('code-sent').innerText()).toContain(account.mobileNumber.slice(-4))
      await fits(page, width)
      // A wrong code first: a clear sentence, and the same page to try again.
      await page.getByLabel('Code from the text message').fill('000000')
      await page.getByLabel(/I understand that the platform may deactivate my account/).check()
      await page.getByRole('button', { name: 'Connect', exact: true }).click()
      await page.waitForLoadState('load')
      expect(await page.locator('.alert-error').innerText()).toContain('That code is not the one the platform sent.')
      await typeCode(page, phone, account.mobileNumber, account.email)
      expect(await platformSection(page)).toContain('Connected as')
      // Nothing of the sign-in is left in the page.
      expect(await page.content()).not.toContain(account.mobileNumber)
    })
  }

  it('in datacenter mode: refuses the cloud sign-in with a clear page, connects by code through a paired device, books from the cloud, then from the device once the user chooses it', async () => {
    await setCloudRefusals(sandbox, { signIn: true, booking: false })
    const page = await pageAt(1280)
    const phone = await pageAt(390)
    await newUser(page, baseUrl)
    const account = await codeOnlyAccount(sandbox)

    // Our servers' sign-in is refused: said plainly, with the way round it.
    await askForCode(page, account.mobileNumber)
    const refused = await page.locator('main').innerText()
    expect(refused).toContain('The platform does not let our servers sign you in.')
    expect(refused).toContain('Connect from your own computer')
    // Settings remembers it, and says it at phone width too.
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto(`${baseUrl}/settings`)
    expect(await page.getByTestId('cloud-refusals').innerText()).toContain('signing in')
    expect(await page.getByTestId('device-hint').innerText()).toContain('Pair your computer')
    await fits(page, 390)
    await page.setViewportSize({ width: 1280, height: 800 })

    // Pair this machine's device program and run it (no platform sign-in on it of its own).
    await page.goto(`${baseUrl}/settings`)
    await page.getByRole('button', { name: 'Pair a device' }).click()
    const code = (await page.getByTestId('user-code').innerText()).trim()
    const env = { ...process.env, ...(await platformEnv()), TABLEWATCH_DEVICE_HOME: home }
    await promisify(execFile)(process.execPath, [BIN, 'pair', '--service', baseUrl, '--code', code, '--name', 'Home laptop'], {
      cwd: ROOT,
      env,
    })
    // From the sandbox's home address (its datacenter mode tells the two apart by where a call comes from).
    device = spawn(process.execPath, [BIN, 'run', '--local-address', '127.0.0.2'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
    device.stdout?.on('data', (d: Buffer) => (deviceLog += d.toString()))
    device.stderr?.on('data', (d: Buffer) => (deviceLog += d.toString()))
    await waitFor(
      'the device connected',
      () => platformSection(page),
      (text) => text.includes('Text me a code through my computer'),
    )

    // The same account, by code, through the device: the diner types the code here, as before.
    await askForCode(page, account.mobileNumber, 'Text me a code through my computer')
    expect(await page.getByTestId('code-sent').innerText()).toContain('asked for by your paired computer')
    await typeCode(page, phone, account.mobileNumber, account.email)
    expect(await platformSection(page)).toContain('Connected as')
    expect(deviceLog).toMatch(/sign-in \S+: send_code/)
    expect(deviceLog).not.toContain(account.mobileNumber)
    // The device kept the session too: it may book for the user if they choose so.
    await waitFor(
      'the device signed in',
      () => platformSection(page).then(() => page.getByTestId('device-status').innerText()),
      (t) => t.includes('signed in to the platform'),
    )
    const token = await createToken(page, baseUrl, 'Connected by code')
    expect((await callApi(baseUrl, token, '/capabilities')).body.executor).toEqual({ ready: true, execution: 'cloud' })

    // Booking from the cloud, which the sandbox still allows.
    const first = await approvedLunch(page, baseUrl, token, 5, 'Lunch, connected by code')
    expect(await sandbox.addSlot(lunchTable(first.venue, first.date))).toBe(true)
    const fromCloud = await waitForRequest(baseUrl, token, first.id, (v) => v.status === 'confirmed', 90_000)
    expect(fromCloud.reservations).toEqual([expect.objectContaining({ verified: true, time: '12:30' })])
    const cloudBooking = (await sandbox.ledger()).filter((b) => b.email === account.email && b.day === first.date)
    expect(cloudBooking).toHaveLength(1)
    expect(cloudBooking[0]?.client).not.toBe(DEVICE_USER_AGENT)

    // Now the sandbox refuses booking from the cloud too: learnt from its answer, said, and left to the user.
    await setCloudRefusals(sandbox, { signIn: true, booking: true })
    const second = await approvedLunch(page, baseUrl, token, 6, 'Lunch, connected by code')
    expect(await sandbox.addSlot({ ...lunchTable(second.venue, second.date), time: '13:00' })).toBe(true)
    await waitFor(
      'the refusal said',
      async () => (await callApi(baseUrl, token, '/capabilities')).body.executor,
      (e) => JSON.stringify(e) === JSON.stringify({ ready: false, reason: 'platform_refuses_cloud', execution: 'cloud' }),
      90_000,
    )
    const said = await platformSection(page)
    expect(said).toContain('Booking from our servers is refused for your account')
    expect((await sandbox.ledger()).filter((b) => b.day === second.date && b.email === account.email)).toHaveLength(0)

    await page.getByLabel(/Book from my paired device/).check()
    await page.getByRole('button', { name: 'Save where booking happens' }).click()
    await page.waitForURL(/done=execution_saved/)
    const fromDevice = await waitForRequest(baseUrl, token, second.id, (v) => v.status === 'confirmed', 120_000)
    expect(fromDevice.reservations).toEqual([expect.objectContaining({ verified: true, time: '13:00' })])
    const deviceBooking = (await sandbox.ledger()).filter((b) => b.email === account.email && b.day === second.date)
    expect(deviceBooking).toHaveLength(1)
    expect(deviceBooking[0]?.client).toBe(DEVICE_USER_AGENT)
    expect((await callApi(baseUrl, token, '/capabilities')).body.executor).toEqual({ ready: true, execution: 'user_device' })
  })
})
