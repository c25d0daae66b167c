// README.md's "API: the assistant loop with curl", run as a newcomer runs it on a fresh
// `npm start`. The commands are read out of README.md (so the README cannot drift from what
// works) and pasted, one at a time, into one bash session, as a person pastes them into a
// terminal; the only change is the port (`localhost:8787` → this run's npm start). Between them
// the person's steps happen in a browser: create the account the README names, connect the
// sandbox platform, and approve the action_url the loop prints. Also `npm run dev:token -- --email`
// (item 1): the token is the browser account's, so the request shows on that account's pages.
// Then the paragraph after the loop: the request made again and, instead of the stop, booked with
// "Open a matching table now"; the follow command shows it confirmed, and a stop answers 409.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser } from '../browser'
import { connectPlatform } from '../diner'
import { type NpmStart, npmStart, ROOT, stopNpmStart, waitForHealth } from '../npm-start'
import { signIn, signUp } from '../pages'
import { freePort } from '../ports'

const HEADING = '## API: the assistant loop with curl'
const README_EMAIL = 'you@example.com'

/** The commands of the section's sh block: comments and blank lines dropped, `\` lines joined. */
function loopCommands(): string[] {
  const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8')
  const start = readme.indexOf(HEADING)
  if (start < 0) throw new Error(`README.md has no "${HEADING}" section`)
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(start))?.[1] ?? ''
  return block
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
}

/** One bash session, fed command by command like a terminal; each answer is its output and exit code. */
class Shell {
  #bash: ChildProcessWithoutNullStreams
  #buffer = ''
  constructor(env: Record<string, string>) {
    this.#bash = spawn('bash', ['--norc', '--noprofile'], { cwd: ROOT, env: { ...process.env, ...env } })
    this.#bash.stdout.on('data', (d: Buffer) => (this.#buffer += d.toString()))
    this.#bash.stderr.on('data', (d: Buffer) => (this.#buffer += d.toString()))
  }

  /** Runs `command`; answers when bash prints the marker after it (its exit code), as the data arrives. */
  run(command: string, timeoutMs = 120_000): Promise<{ output: string; code: number }> {
    const marker = `__done_${crypto.randomUUID().slice(0, 8)}__`
    const done = new RegExp(`\\n${marker}(\\d+)\\n`)
    this.#buffer = ''
    return new Promise((resolve, reject) => {
      const streams = [this.#bash.stdout, this.#bash.stderr]
      const finish = (settle: () => void) => {
        clearTimeout(timer)
        for (const stream of streams) stream.off('data', check)
        settle()
      }
      const check = () => {
        const m = done.exec(this.#buffer)
        if (m) finish(() => resolve({ output: this.#buffer.slice(0, m.index).trim(), code: Number(m[1]) }))
      }
      const timer = setTimeout(() => finish(() => reject(new Error(`"${command}" did not finish: ${this.#buffer}`))), timeoutMs)
      // Added after the constructor's listeners, so the buffer already holds each chunk checked.
      for (const stream of streams) stream.on('data', check)
      this.#bash.stdin.write(`${command}\nprintf '\\n${marker}%s\\n' "$?"\n`)
    })
  }

  close(): void {
    this.#bash.stdin.end()
  }
}

let started: NpmStart
let origin = ''
let browser: Browser
let page: Page
let shell: Shell

beforeAll(async () => {
  const port = await freePort()
  origin = `http://localhost:${port}`
  started = await npmStart(['--port', String(port)])
  browser = await launchBrowser()
  page = await (await browser.newContext()).newPage()
  await waitForHealth(started, origin)
  shell = new Shell({ TABLEWATCH_PERSIST_TO: started.state })
}, 240_000)

afterAll(async () => {
  shell?.close()
  await browser?.close()
  if (started) await stopNpmStart(started)
})

const json = (text: string) => JSON.parse(text) as Record<string, unknown>
const onThisPort = (command: string) => command.replaceAll('localhost:8787', new URL(origin).host)

/** The person's part of the loop's `echo … action_url` line: open the link in the browser, approve. */
async function approve(actionUrl: string): Promise<void> {
  expect(actionUrl).toMatch(new RegExp(`^${origin}/requests/sr_[^/]+/approve`))
  await page.goto(actionUrl)
  await page.getByRole('button', { name: 'Approve' }).click()
  await page.waitForURL(/done=approved/)
}

describe('README: the assistant loop with curl, on a fresh npm start', () => {
  it('refuses a token for an account that does not exist yet, and says what to do', async () => {
    const { output, code } = await shell.run(`npm run -s dev:token -- --email ${README_EMAIL}`)
    expect(code).not.toBe(0)
    expect(output).toContain(`no account ${README_EMAIL}`)
    expect(output).toContain('Create it in the browser first')
  })

  it('runs every command as written: search → preview → create → approve the action_url → get → stop', { timeout: 300_000 }, async () => {
    // The person's part first: the account the README names, and the sandbox platform connected.
    await signUp(page, origin, README_EMAIL)
    await signIn(page, origin, README_EMAIL)
    await connectPlatform(page, origin, 'newcomer@example.com')

    const commands = loopCommands().map(onThisPort)
    expect(commands.length).toBeGreaterThanOrEqual(9)
    const seen = { search: false, preview: false, approved: false, got: false, stopped: false }
    let id = ''
    for (const command of commands) {
      const { output, code } = await shell.run(command)
      expect(code, `${command}\n${output}`).toBe(0)
      if (command.includes('/restaurants?q=')) {
        const restaurants = json(output).restaurants as { venue_id: number; name: string }[]
        expect(restaurants.map((r) => r.name)).toContain('Marrow & Smoke')
        seen.search = true
      } else if (command.includes('/requests/preview')) {
        expect(json(output).code, output).toBeUndefined()
        seen.preview = true
      } else if (command.startsWith('echo') && command.includes('action_url')) {
        // The person opens the printed link in the browser they signed up in, and approves.
        await approve(output)
        seen.approved = true
      } else if (command.includes('/stop')) {
        expect(json(output)).toMatchObject({ id, status: 'stopped' })
        seen.stopped = true
      } else if (/\/requests\/\$ID\b/.test(command)) {
        expect(json(output)).toMatchObject({ id, status: 'active', mode: 'auto_book' })
        seen.got = true
      }
      if (command.startsWith('ID=')) id = (await shell.run('echo "$ID"')).output
    }
    expect(seen).toEqual({ search: true, preview: true, approved: true, got: true, stopped: true })
    expect(id).toMatch(/^sr_/)
    // dev:token --email made the token of the browser's account: the request is on its pages.
    await page.goto(`${origin}/requests`)
    expect(await page.getByText('Business lunch').count()).toBeGreaterThan(0)
  })

  it('made again and booked with "Open a matching table now" instead of stopped: confirmed and verified, and a stop then answers 409 request_closed', {
    timeout: 300_000,
  }, async () => {
    // The shell still holds TOKEN, DAY and SPEC from the loop; the person runs its create lines again.
    const commands = loopCommands().map(onThisPort)
    const again = commands.filter((c) => /^(KEY|REQUEST|ID)=/.test(c) || (c.startsWith('echo') && c.includes('action_url')))
    const follow = commands.find((c) => /\/requests\/\$ID\b/.test(c) && !c.includes('/stop'))
    const stop = commands.find((c) => c.includes('/stop'))
    expect(again).toHaveLength(4)
    for (const command of again) {
      const { output, code } = await shell.run(command)
      expect(code, `${command}\n${output}`).toBe(0)
      if (command.startsWith('echo')) await approve(output)
    }
    const id = (await shell.run('echo "$ID"')).output
    expect(id).toMatch(/^sr_/)

    await page.goto(`${origin}/requests/${id}`)
    await page.getByRole('button', { name: 'Open a matching table now' }).click()
    await page.waitForURL(/done=demo_table/)
    // The person runs the follow command now and then; "within a minute" (a guard here, not a target).
    const deadline = Date.now() + 120_000
    let view = json((await shell.run(follow ?? '')).output)
    while (view.status !== 'confirmed' && Date.now() < deadline) {
      await new Promise((ok) => setTimeout(ok, 2_000))
      view = json((await shell.run(follow ?? '')).output)
    }
    expect(view).toMatchObject({ id, status: 'confirmed' })
    expect(view.reservations).toMatchObject([{ verified: true }])

    const refused = json((await shell.run(stop ?? '')).output)
    expect(refused.code).toBe('request_closed')
    const token = (await shell.run('echo "$TOKEN"')).output
    const status = (await fetch(`${origin}/api/v1/requests/${id}/stop`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } }))
      .status
    expect(status).toBe(409)
    expect(json((await shell.run(follow ?? '')).output)).toMatchObject({ status: 'confirmed', reservations: [{ verified: true }] })
  })
})
