// `npm start` (scripts/start.mjs) run by a test beside the suite's service: on a port of its own,
// with its own state directory and dev registry, its output kept. Used by start-port.test.ts and
// readme-api-loop.test.ts.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { firstAnswer, printed, type WatchedProcess, watched } from '../helpers/process-output'
import { freePort } from './ports'

export const ROOT = resolve(import.meta.dirname, '../..')

export interface NpmStart extends WatchedProcess {
  /** Its state directory (TABLEWATCH_PERSIST_TO for npm run dev:token). */
  state: string
  dir: string
}

const keyIn = (path: string) =>
  existsSync(path) ? /^\s*PLATFORM_API_KEY\s*=\s*["']?([^"'\s]+)/m.exec(readFileSync(path, 'utf8'))?.[1] : undefined

/**
 * npm start keeps sandbox/.dev.vars on the platform API key of .dev.vars. The suite's sandbox is
 * running on sandbox/.dev.vars's key, so .dev.vars is given that key first (both are local,
 * random), and start.mjs finds nothing to change under the running sandbox.
 */
function alignLocalApiKey(): void {
  const sandboxKey = keyIn(join(ROOT, 'sandbox/.dev.vars'))
  if (!sandboxKey) throw new Error('the suite set-up writes sandbox/.dev.vars')
  const path = join(ROOT, '.dev.vars')
  const text = existsSync(path) ? readFileSync(path, 'utf8') : ''
  if (keyIn(path) === sandboxKey) return
  const others = text.split('\n').filter((line) => line.trim() !== '' && !/^\s*PLATFORM_API_KEY\s*=/.test(line))
  writeFileSync(path, [...others, `PLATFORM_API_KEY=${sandboxKey}`, ''].join('\n'), { mode: 0o600 })
}

/** Starts `npm start` with `args`; the state directory comes from TABLEWATCH_PERSIST_TO, as a user would set it. */
export async function npmStart(args: string[], env: Record<string, string> = {}): Promise<NpmStart> {
  alignLocalApiKey()
  const dir = await mkdtemp(join(tmpdir(), 'tablewatch-start-'))
  const state = join(dir, 'state')
  const inspector = await freePort()
  // The Node that runs vitest is the project's Node 22, which `npm start` uses too.
  const child = spawn(
    process.execPath,
    ['scripts/start.mjs', ...args, '--inspector-port', String(inspector), '--show-interactive-dev-session=false'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        WRANGLER_SEND_METRICS: 'false',
        CI: 'true',
        NO_COLOR: '1',
        WRANGLER_REGISTRY_PATH: join(dir, 'registry'),
        TABLEWATCH_PERSIST_TO: state,
        ...env,
      },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  return { ...watched(child), state, dir }
}

/** npm start says when the service is up (it has seen /health answer); then /health answers on `origin`. */
export async function waitForHealth(started: NpmStart, origin: string): Promise<void> {
  await printed(started, /^Tablewatch is up: /m, 'npm start', 150_000)
  await firstAnswer(`${origin}/health`, 10_000)
}

/** Stops it (the whole process group: wrangler and its workerd) and removes its directory. */
export async function stopNpmStart(started: NpmStart): Promise<void> {
  const { child, dir } = started
  if (child.exitCode === null && child.pid !== undefined) {
    const exited = new Promise((ok) => child.on('exit', ok))
    process.kill(-child.pid, 'SIGTERM')
    const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 10_000)
    await exited
    clearTimeout(timer)
  }
  await rm(dir, { recursive: true, force: true })
}
