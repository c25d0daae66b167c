// The production mailer (Cloudflare Email Service through the send_email binding) against the
// binding's local emulation: the service runs as configured for production (`--env production`,
// MAILER=cloudflare) in its own `wrangler dev`, a person asks for a test email in Settings, and
// the message is read back from the emulation's store (the local explorer API of wrangler dev):
// From, To, subject, the RFC 8058 one-click unsubscribe headers and the link in the text. The
// link's one-click POST then turns email alerts off.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { firstAnswer, printed, watched } from '../../helpers/process-output'
import { launchBrowser, screenshotBoth } from '../browser'
import { freshEmail, PASSWORD } from '../pages'
import { freePort } from '../ports'

const ROOT = resolve(import.meta.dirname, '../../..')
const WRANGLER = join(ROOT, 'node_modules/wrangler/bin/wrangler.js')
const MAIL_FROM = 'Tablewatch <alerts@tablewatch.example>'

let dir = ''
let origin = ''
let child: ChildProcess | null = null
let browser: Browser
let page: Page

function wrangler(args: string[]): ChildProcess {
  const env = {
    ...process.env,
    WRANGLER_SEND_METRICS: 'false',
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    CI: 'true',
    NO_COLOR: '1',
    WRANGLER_REGISTRY_PATH: join(dir, 'registry'),
  }
  return spawn(process.execPath, [WRANGLER, ...args], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
}

/** wrangler says when it listens; then the first answer of /health (which starts the worker). */
async function untilHealthy(dev: ChildProcess): Promise<void> {
  await printed(watched(dev), /Ready on /, 'wrangler dev --env production', 150_000)
  await firstAnswer(`${origin}/health`, 150_000)
}

interface SentEmail {
  messageId: string
  from: string
  to: string[]
  subject: string
  headers?: Record<string, string>
  text?: string
}

/** What the send_email binding's local emulation received, from wrangler dev's local explorer. */
async function sentEmails(): Promise<SentEmail[]> {
  const list = (await (await fetch(`${origin}/cdn-cgi/local/explorer/api/local/email/sending`)).json()) as { result: SentEmail[] }
  return Promise.all(
    list.result.map(async (item) => {
      const url = `${origin}/cdn-cgi/local/explorer/api/local/email/sending?email_id=${encodeURIComponent(item.messageId)}`
      return ((await (await fetch(url)).json()) as { result: SentEmail }).result
    }),
  )
}

/**
 * Signs up as a new diner would in production: the form answers "check your inbox", the
 * confirmation mail goes out through the send_email binding, and its link creates the account.
 */
async function signUpByMail(): Promise<string> {
  const email = freshEmail()
  await page.goto(`${origin}/signup`)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Create account' }).click()
  await page.waitForLoadState('load')
  let link = ''
  for (let i = 0; i < 50 && !link; i++) {
    const mail = (await sentEmails()).find((m) => m.to.some((to) => to.includes(email)))
    link = /(https?:\/\/\S+\/signup\/confirm\?\S+)/.exec(mail?.text ?? '')?.[1] ?? ''
    if (!link) await new Promise((r) => setTimeout(r, 200))
  }
  expect(link.startsWith(`${origin}/signup/confirm?`)).toBe(true)
  await page.goto(link)
  await page.getByRole('button', { name: 'Create my account' }).click()
  await page.waitForLoadState('load')
  expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true)
  return email
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tablewatch-prod-mail-'))
  const state = join(dir, 'state')
  const envFile = join(dir, '.dev.vars')
  const tokenKey = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')
  const secret = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')
  await writeFile(
    envFile,
    `PLATFORM_API_KEY=unused-${crypto.randomUUID()}\nPLATFORM_TOKEN_KEY=${tokenKey}\nPASSWORD_PEPPER=${secret()}\nCSRF_SECRET=${secret()}\n`,
  )
  const migrate = wrangler(['d1', 'migrations', 'apply', 'DB', '--local', '--env', 'production', '--persist-to', state])
  const migration = watched(migrate) // read, so a full pipe never stalls it
  const code = await new Promise<number | null>((ok) => migrate.on('exit', ok))
  if (code !== 0) throw new Error(`migrations exited with ${code}:\n${migration.output()}`)
  const port = await freePort()
  origin = `http://localhost:${port}`
  const inspector = await freePort()
  child = wrangler([
    'dev',
    '--env',
    'production',
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--inspector-port',
    String(inspector),
    '--persist-to',
    state,
    '--env-file',
    envFile,
    '--var',
    `PUBLIC_BASE_URL:${origin}`,
    '--var',
    `MAIL_FROM:${MAIL_FROM}`,
    '--show-interactive-dev-session=false',
  ])
  await untilHealthy(child)
  browser = await launchBrowser()
  page = await (await browser.newContext()).newPage()
}, 240_000)

afterAll(async () => {
  await browser?.close()
  if (child && child.exitCode === null && child.pid !== undefined) {
    const exited = new Promise((ok) => child?.on('exit', ok))
    process.kill(-child.pid, 'SIGTERM')
    const timer = setTimeout(() => child?.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 10_000)
    await exited
    clearTimeout(timer)
  }
  await rm(dir, { recursive: true, force: true })
})

describe('the production mailer (send_email binding, local emulation)', () => {
  it('sends the message with one-click unsubscribe headers, and the link turns email alerts off', { timeout: 120_000 }, async () => {
    const email = await signUpByMail()
    await page.goto(`${origin}/settings`)
    await page.getByRole('button', { name: 'Send me a test email' }).click()
    await page.waitForLoadState('load')
    expect(await page.locator('.alert-success').innerText()).toBe(`Test email sent to ${email}.`)

    const mine = (await sentEmails()).filter((m) => m.to.some((to) => to.includes(email)) && m.subject === 'Tablewatch test')
    expect(mine).toHaveLength(1)
    const [sent] = mine
    if (!sent) throw new Error('no email')
    expect(sent.from).toBe(MAIL_FROM)
    expect(sent.subject).toBe('Tablewatch test')
    const link = /^<(.+)>$/.exec(sent.headers?.['List-Unsubscribe'] ?? '')?.[1] ?? ''
    expect(link).toMatch(new RegExp(`^${origin}/unsubscribe\\?u=usr_[^&]+&t=[A-Za-z0-9_-]{43}$`))
    expect(sent.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click')
    expect(sent.text).toContain(`Your inbox: ${origin}/notifications`)
    expect(sent.text).toContain(`Stop these emails: ${link}`)

    // A forged token changes nothing.
    const forged = link.replace(/t=.*/, `t=${'A'.repeat(43)}`)
    const refused = await fetch(forged, { method: 'POST', body: new URLSearchParams({ 'List-Unsubscribe': 'One-Click' }) })
    expect(refused.status).toBe(400)
    await page.goto(`${origin}/settings`)
    expect(await page.getByLabel(`Email me alerts at ${email}`).isChecked()).toBe(true)

    // Opening the link shows a confirmation (a GET changes nothing); the mail client's one-click POST unsubscribes.
    await page.goto(link)
    await screenshotBoth(page, 'unsubscribe')
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Stop alert emails?')
    await page.goto(`${origin}/settings`)
    expect(await page.getByLabel(`Email me alerts at ${email}`).isChecked()).toBe(true)
    const oneClick = await fetch(link, { method: 'POST', body: new URLSearchParams({ 'List-Unsubscribe': 'One-Click' }) })
    expect(oneClick.status).toBe(200)
    await page.goto(`${origin}/settings`)
    expect(await page.getByLabel(`Email me alerts at ${email}`).isChecked()).toBe(false)
  })
})
