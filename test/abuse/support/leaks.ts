// The secrets check: every response (status, headers, body) and every console line of a test
// is kept, and at its end none may contain a secret the file used (tokens, passwords, platform
// credentials). Each test starts its own watch in beforeEach (watchConsole) and ends with
// expectNoLeaks(); secrets stay known for the whole file.
import { expect, type MockInstance, vi } from 'vitest'

const secrets = new Set<string>()
const transcript: string[] = []
const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug'] as const
let spies: MockInstance[] = []

/** Marks a value that must never appear in what the service sends or logs. */
export function keepSecret(value: string): string {
  if (value.length < 6) throw new Error('a secret this short would match by accident')
  secrets.add(value)
  return value
}

export function recordResponse(label: string, status: number, headers: Headers, body: string): void {
  const headerLines = [...headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n')
  transcript.push(`${label} -> ${status}\n${headerLines}\n\n${body}`)
}

/**
 * Starts a fresh watch for one test: forgets earlier responses and console lines, and captures
 * console output from now on (the worker runs in the test's isolate, so it logs here too).
 */
export function watchConsole(): void {
  for (const spy of spies) spy.mockRestore()
  transcript.length = 0
  spies = CONSOLE_METHODS.map((method) => vi.spyOn(console, method))
}

function consoleLines(): string[] {
  return spies.flatMap((spy) =>
    spy.mock.calls.map((args) =>
      args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack ?? ''}` : typeof a === 'string' ? a : JSON.stringify(a))).join(' '),
    ),
  )
}

export interface LeakReport {
  responses: number
  consoleLines: number
  secrets: number
  /** Each leak as "where: which secret (masked)"; the secret itself is never printed. */
  leaks: string[]
}

const mask = (secret: string) => `${secret.slice(0, 4)}…(${secret.length} chars)`

/**
 * Also checks that JSON-escaped and URL-encoded forms of each secret are absent. `canaries` are
 * looked for too, without being kept: a test plants one to prove the check can see a leak.
 */
export function findLeaks(canaries: string[] = []): LeakReport {
  const lines = consoleLines()
  const places = [...transcript.map((t, i) => [`response ${i}`, t] as const), ...lines.map((l, i) => [`console line ${i}`, l] as const)]
  const leaks: string[] = []
  for (const secret of new Set([...secrets, ...canaries])) {
    const forms = new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)])
    for (const [where, text] of places) {
      if ([...forms].some((form) => text.includes(form))) leaks.push(`${where}: ${mask(secret)}`)
    }
  }
  return { responses: transcript.length, consoleLines: lines.length, secrets: secrets.size, leaks }
}

/** The end of every test of the abuse suite: nothing it sent or logged held a secret. */
export function expectNoLeaks(): LeakReport {
  const report = findLeaks()
  expect(report.leaks).toEqual([])
  return report
}
