// Waiting for what a child process prints, as an event rather than a poll: the Node-side suites
// (test/e2e, test/probe) start `wrangler dev` and `npm start` and go on once they say they are
// ready. The timeout guards against hangs; it is not a speed target.
import type { ChildProcess } from 'node:child_process'

export interface WatchedProcess {
  child: ChildProcess
  /** Everything it printed so far, stdout and stderr together. */
  output: () => string
}

/** Starts collecting what `child` prints. */
export function watched(child: ChildProcess): WatchedProcess {
  let output = ''
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()))
  return { child, output: () => output }
}

/** Resolves with the output once it matches `pattern`; rejects when the process exits first, or after `timeoutMs`. */
export function printed(process: WatchedProcess, pattern: RegExp, label: string, timeoutMs: number): Promise<string> {
  const { child, output } = process
  return new Promise((resolve, reject) => {
    const streams = [child.stdout, child.stderr]
    const done = (settle: () => void) => {
      clearTimeout(timer)
      for (const stream of streams) stream?.off('data', check)
      child.off('exit', exited)
      settle()
    }
    const check = () => {
      if (pattern.test(output())) done(() => resolve(output()))
    }
    const exited = (code: number | null) =>
      done(() => reject(new Error(`${label} exited (${code}) before printing ${pattern}:\n${output().slice(-4000)}`)))
    const timer = setTimeout(
      () => done(() => reject(new Error(`${label} did not print ${pattern} within ${timeoutMs / 1000} s:\n${output().slice(-4000)}`))),
      timeoutMs,
    )
    // Listeners added after the collector's: `output()` already holds the chunk being checked.
    for (const stream of streams) stream?.on('data', check)
    child.on('exit', exited)
    if (child.exitCode !== null) exited(child.exitCode)
    else check()
  })
}

/**
 * The first answer of a server that says it is listening: one call at a time, each given time
 * (the first one starts the worker, seconds on a loaded machine), until `url` answers 2xx.
 */
export async function firstAnswer(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let last = ''
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(Math.max(1_000, deadline - Date.now())) })
      if (res.ok) return
      last = `HTTP ${res.status}`
    } catch (err) {
      last = String(err)
    }
    await new Promise((ok) => setTimeout(ok, 250))
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s (last: ${last})`)
}
