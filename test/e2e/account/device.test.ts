// Booking from a paired device, with real processes: the sandbox and the service
// under `wrangler dev` (the harness), a real `tablewatch-device` process paired through the
// Settings page in headless Chromium, signed in to the sandbox platform on the device only.
// The sandbox drops a table; the booking must be made by the device (the sandbox records the
// client of each booking) and verified. Then the device is killed in the middle of a booking.
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { DEVICE_USER_AGENT } from '../../../device/src/work'
import { sandboxControl } from '../../../sandbox/control-client'
import { callApi, waitForRequest } from '../api'
import { launchBrowser } from '../browser'
import { approvedLunch, lunchTable, valueWhen } from '../diner'
import { newUser } from '../pages'

const ROOT = resolve(import.meta.dirname, '../../..')
const BIN = join(ROOT, 'device/bin/tablewatch-device.mjs')
const baseUrl = inject('baseUrl')
const sandboxUrl = inject('sandboxUrl')
const sandbox = sandboxControl({ fetcher: globalThis, baseUrl: sandboxUrl })
const platformEmail = `device-diner-${crypto.randomUUID().slice(0, 6)}@example.com`

let browser: Browser
let page: Page
let home = ''
let token = ''
let device: ChildProcess | null = null
let deviceLog = ''

async function platformEnv(): Promise<Record<string, string>> {
  const vars = await readFile(join(ROOT, 'sandbox/.dev.vars'), 'utf8')
  const apiKey = /^\s*PLATFORM_API_KEY\s*=\s*["']?([^"'\s]+)/m.exec(vars)?.[1] ?? ''
  return { TABLEWATCH_PLATFORM_URL: sandboxUrl, TABLEWATCH_PLATFORM_API_KEY: apiKey, TABLEWATCH_PLATFORM_PASSWORD: 'sandbox-password-1' }
}

/** One command of the device program, as a user runs it, to its end. */
async function deviceCommand(args: string[]): Promise<string> {
  const env = { ...process.env, ...(await platformEnv()), TABLEWATCH_DEVICE_HOME: home }
  const { stdout } = await promisify(execFile)(process.execPath, [BIN, ...args], { cwd: ROOT, env })
  return stdout
}

/** `tablewatch-device run`, left running. */
async function startDevice(): Promise<void> {
  const env = { ...process.env, TABLEWATCH_DEVICE_HOME: home }
  const child = spawn(process.execPath, [BIN, 'run'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout?.on('data', (d: Buffer) => (deviceLog += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (deviceLog += d.toString()))
  device = child
}

async function killDevice(): Promise<void> {
  const child = device
  if (!child || child.exitCode !== null) return
  const exited = new Promise((ok) => child.on('exit', ok))
  child.kill('SIGKILL')
  await exited
  device = null
}

async function settingsText(): Promise<string> {
  await page.goto(`${baseUrl}/settings`)
  return page.locator('main').innerText()
}

/** Waits for what the device makes happen; a failure shows the device's last output. */
const waitFor = <T>(what: string, get: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 60_000) =>
  valueWhen(what, get, ok, { timeoutMs, context: () => deviceLog.slice(-2000) })

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'tablewatch-device-'))
  browser = await launchBrowser()
  page = await (await browser.newContext()).newPage()
})
afterAll(async () => {
  await killDevice()
  await browser?.close()
  if (home) await rm(home, { recursive: true, force: true })
})

describe('a paired device books', () => {
  it('pairs a real device process through the Settings page and signs in to the platform on the device only', async () => {
    await newUser(page, baseUrl)
    expect(await settingsText()).toContain('Pair a device first')
    const started = Date.now()
    await page.getByRole('button', { name: 'Pair a device' }).click()
    const code = (await page.getByTestId('user-code').innerText()).trim()
    expect(await page.getByTestId('pair-command').innerText()).toBe(`npx tablewatch-device pair --service ${baseUrl} --code ${code}`)
    expect(await deviceCommand(['pair', '--service', baseUrl, '--code', code, '--name', 'E2E laptop'])).toContain('Paired as "E2E laptop"')
    const pairedMs = Date.now() - started
    expect(await deviceCommand(['login', '--password', '--email', platformEmail])).toContain('Signed in as')
    expect((await stat(join(home, 'device.json'))).mode & 0o777).toBe(0o600)
    await startDevice()
    await waitFor('the device shown connected', settingsText, (text) => text.includes('A device is connected: signed in to the platform'))
    const connectedMs = Date.now() - started
    console.log(`pairing: code shown → device paired ${pairedMs} ms; → signed in and connected ${connectedMs} ms`)
    expect(await settingsText()).toContain('E2E laptop')

    await page.getByLabel(/Book from my paired device/).check()
    await page.getByRole('button', { name: 'Save where booking happens' }).click()
    await page.waitForURL(/done=execution_saved/)

    await page.goto(`${baseUrl}/assistants`)
    await page.getByLabel('Name').fill('Device assistant')
    await page.getByRole('button', { name: 'Create token' }).click()
    token = (await page.locator('#new-token-value').innerText()).trim()
    expect((await callApi(baseUrl, token, '/capabilities')).body.executor).toEqual({ ready: true, execution: 'user_device' })
  })

  it('books the table the sandbox drops from the device, and verifies it', async () => {
    const { id, venue, date } = await approvedLunch(page, baseUrl, token, 6, 'Lunch booked by my device')
    const droppedAt = Date.now()
    expect(await sandbox.addSlot(lunchTable(venue, date))).toBe(true)
    const ledger = await waitFor(
      'the booking',
      async () => (await sandbox.ledger()).filter((b) => b.email === platformEmail),
      (l) => l.length > 0,
      90_000,
    )
    console.log(`drop → booking submitted via the device: ${(ledger[0]?.bookedAt ?? 0) - droppedAt} ms`)
    expect(ledger).toHaveLength(1)
    expect(ledger[0]).toMatchObject({ venueId: venue.venue_id, day: date, time: '12:30', client: DEVICE_USER_AGENT })
    const confirmed = await waitForRequest(baseUrl, token, id, (v) => v.status === 'confirmed', 60_000)
    expect(confirmed.reservations).toEqual([expect.objectContaining({ verified: true, time: '12:30' })])
    expect(deviceLog).toMatch(/work \S+: book/)
    // Availability too was checked from the device (the user's own venue-day object).
    expect(deviceLog).toMatch(/work find:\S+: find/)
  })

  it('verifies a booking in flight when the device is killed, after it restarts, and never books twice', async () => {
    const { id, venue, date } = await approvedLunch(page, baseUrl, token, 7, 'Lunch booked by my device')
    // The platform takes the booking but its answer hangs: the device is killed while it waits.
    await sandbox.injectFault({ endpoint: 'book', kind: 'book_lost', hangMs: 30_000, count: 1 })
    await sandbox.addSlot({ ...lunchTable(venue, date), time: '13:00' })
    const mine = async () => (await sandbox.ledger()).filter((b) => b.email === platformEmail && b.day === date)
    await waitFor('the booking to land', mine, (l) => l.length === 1, 90_000)
    await killDevice()
    await waitForRequest(baseUrl, token, id, (v) => v.status === 'awaiting_verification', 30_000)

    await startDevice()
    const confirmed = await waitForRequest(baseUrl, token, id, (v) => v.status === 'confirmed', 90_000)
    expect(confirmed.reservations).toEqual([expect.objectContaining({ verified: true, time: '13:00' })])
    expect(await mine()).toHaveLength(1)
  })
})
