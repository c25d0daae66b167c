// `npm run platform:probe`: run by an operator, by hand, from their own machine, against the real
// platform. See README.md "Probing the real platform" and options.ts for the flags.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { type ProbeOptions, parseOptions, USAGE, UsageError } from './options'
import { type Credentials, type ProbeIo, runProbe } from './probe'
import { OutDirTaken, prepareOutDir, writeRun } from './write'

export interface CliEnvironment {
  argv: string[]
  env: Record<string, string | undefined>
  /** The repository root: the default recordings folder and sandbox/.dev.vars are under it. */
  root: string
  network: (request: Request) => Promise<Response>
  /** Asks on the terminal (the password without echo); null when there is no terminal. */
  ask: ((question: string, secret: boolean) => Promise<string>) | null
  print: (line: string) => void
  intervalMs: number
  now: () => Date
}

const LOOPBACK = /^https?:\/\/(?:localhost|127\.\d+\.\d+\.\d+|\[::1\])(?::\d+)?(?:\/|$)/

/** Exit codes: 0 done (differences are findings, not failures), 1 stopped early or failed, 2 usage. */
export async function main(cli: CliEnvironment): Promise<number> {
  let options: ProbeOptions | 'help'
  try {
    options = parseOptions(cli.argv, cli.env, cli.now().getTime())
  } catch (err) {
    if (!(err instanceof UsageError)) throw err
    cli.print(`platform probe: ${err.message}\n\n${USAGE}`)
    return 2
  }
  if (options === 'help') {
    cli.print(USAGE)
    return 0
  }
  // An operator's tool: a CI job must never reach the real platform with it.
  if (cli.env.CI && !LOOPBACK.test(options.baseUrl)) {
    cli.print('platform probe: refusing to run in CI (CI is set); it is for an operator, by hand, once')
    return 2
  }
  // The real platform is called only once the operator says so (--yes for scripted use).
  if (!options.yes && !LOOPBACK.test(options.baseUrl)) {
    const from = options.places.join(' and ')
    if (!cli.ask) {
      cli.print(
        `platform probe: this calls the real platform at ${options.baseUrl} (from ${from}); confirm with --yes when there is no terminal`,
      )
      return 2
    }
    const answer = await cli.ask(`This calls the real platform at ${options.baseUrl} (read-only, from ${from}). Go on? [y/N] `, false)
    if (!/^y(?:es)?$/i.test(answer.trim())) {
      cli.print('platform probe: not confirmed; nothing was sent')
      return 1
    }
  }
  if (options.sandbox && options.sandbox.apiKey === null) options.sandbox.apiKey = sandboxKeyFrom(cli.root)
  const startedAt = cli.now()
  const outDir = options.outDir ?? join(cli.root, 'test', 'platform', 'fixtures', 'recorded', startedAt.toISOString().slice(0, 10))
  try {
    prepareOutDir(outDir)
  } catch (err) {
    if (!(err instanceof OutDirTaken)) throw err
    cli.print(`platform probe: ${err.message}`)
    return 2
  }
  const io: ProbeIo = { network: cli.network, credentials: () => credentialsOf(cli), print: cli.print, intervalMs: cli.intervalMs }
  cli.print(
    `platform probe: ${options.baseUrl} (read-only) from ${options.places.join(' and ')}, day ${options.day}, party ${options.partySize}${options.account ? ', with the account' : ''}`,
  )
  if (options.sandbox) cli.print(`  compared with the sandbox at ${options.sandbox.baseUrl}`)
  let result: Awaited<ReturnType<typeof runProbe>>
  try {
    result = await runProbe(options, io)
  } catch (err) {
    if (!(err instanceof CredentialsMissing)) throw err
    cli.print(`platform probe: ${err.message}`)
    return 2
  }
  const written = writeRun(outDir, options, result, startedAt)
  const count = (against: string) => result.differences.filter((d) => d.against === against).length
  for (const note of result.notes) cli.print(`note: ${note}`)
  if (result.stoppedBecause) cli.print(`stopped early: ${result.stoppedBecause}`)
  if (result.signIn.length > 0) cli.print('sign-in, asked without credentials:')
  for (const check of result.signIn)
    cli.print(`  ${check.call}: ${options.places.map((place) => `${place} ${check.from[place] ?? 'not asked'}`).join(' · ')}`)
  cli.print(
    `${result.recordings.length} calls; differences: ${count('schema')} from the client's schemas, ${count('client')} in the client's block reading, ${count('sandbox')} from the sandbox, ${count('place')} between the places`,
  )
  cli.print(`recorded (redacted) in ${outDir} (${written.length} files): review every file before committing it`)
  return result.stoppedBecause ? 1 : 0
}

class CredentialsMissing extends Error {}

async function credentialsOf(cli: CliEnvironment): Promise<Credentials> {
  const email = cli.env.PROBE_EMAIL || (cli.ask ? await cli.ask('Platform account email: ', false) : '')
  const password = cli.env.PROBE_PASSWORD || (cli.ask ? await cli.ask('Password (not shown): ', true) : '')
  if (!email.trim() || !password)
    throw new CredentialsMissing('--account needs the email and password: set PROBE_EMAIL and PROBE_PASSWORD, or run it in a terminal')
  return { email: email.trim(), password }
}

/** PLATFORM_API_KEY from sandbox/.dev.vars (written by `npm start`), or null. */
function sandboxKeyFrom(root: string): string | null {
  try {
    const text = readFileSync(join(root, 'sandbox', '.dev.vars'), 'utf8')
    return /^\s*PLATFORM_API_KEY\s*=\s*["']?([^"'\s]+)/m.exec(text)?.[1] ?? null
  } catch {
    return null
  }
}

/** A terminal prompt; a secret answer is not echoed. */
export function terminalAsk(question: string, secret: boolean): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true })
    if (secret) {
      const write = process.stdout.write.bind(process.stdout)
      // readline echoes through _writeToOutput; after the question, print nothing the user types.
      Object.assign(rl, { _writeToOutput: (text: string) => (text.startsWith(question) ? write(question) : undefined) })
    }
    rl.question(question, (answer) => {
      rl.close()
      if (secret) process.stdout.write('\n')
      resolve(answer)
    })
  })
}

/** Run as the command (scripts/platform-probe/run.mjs imports this bundle with the repository root). */
export async function runCommand(root: string): Promise<void> {
  const code = await main({
    argv: process.argv.slice(2),
    env: process.env,
    root,
    network: (request) => fetch(request),
    ask: process.stdin.isTTY ? terminalAsk : null,
    print: (line) => console.log(line),
    intervalMs: 1000,
    now: () => new Date(),
  })
  process.exitCode = code
}
