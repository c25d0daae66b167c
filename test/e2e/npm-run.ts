// `npm run -s <script> -- <args>` as a user runs it, with what it printed; a run that does not end
// is stopped (its whole process group: npx, wrangler, workerd) after `timeoutMs`, a guard against
// hangs rather than a speed target.
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '../..')

export interface NpmRun {
  code: number | null
  stdout: string
  stderr: string
}

export function npmRun(script: string, args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<NpmRun> {
  const child = spawn('npm', ['run', '-s', script, '--', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), timeoutMs)
  return new Promise((done) =>
    child.on('exit', (code) => {
      clearTimeout(timer)
      done({ code, stdout, stderr })
    }),
  )
}
