// `npm start`: the service and the sandbox platform together in ONE `wrangler dev` on :8787,
// offline and without a Cloudflare account. The service reaches the sandbox through its PLATFORM
// service binding (wrangler.toml); the sandbox is not exposed on a port of its own.
//
// Before starting it applies the local D1 migrations and makes sure the local secrets exist:
//   .dev.vars          PLATFORM_API_KEY, PLATFORM_TOKEN_KEY, PASSWORD_PEPPER, CSRF_SECRET,
//                      VAPID_PRIVATE_KEY (Web Push; generated once, kept afterwards)
//   sandbox/.dev.vars  PLATFORM_API_KEY (always the same value as in .dev.vars)
// Both files are gitignored. Extra arguments are passed to `wrangler dev`.
//
// The port is 8787 unless `--port N` (or `--port=N`) or the PORT environment variable says
// otherwise (scripts/local-port.mjs). Unless .dev.vars sets PUBLIC_BASE_URL, the service's public
// origin (links, the OAuth issuer, the MCP resource) is http://localhost:<that port>, so OAuth works
// on any port. A `--persist-to DIR` argument (or the TABLEWATCH_PERSIST_TO environment variable,
// which `npm run dev:token` reads too) also decides where the migrations are applied.
//
// LOCAL_DEVELOPMENT=on and SHOW_OUTBOX=on are passed here (`--var`), not kept in wrangler.toml's
// [vars], so that a `wrangler deploy` without `--env production` never carries them
// (docs/decisions/deploy.md).
//
// The terminal gets one screen: where the service is starting, then, once /health answers, the URL
// and the next steps. Everything wrangler prints (the migration tables, the bindings, each request)
// goes to a log file named on that screen, written afresh at each start: .wrangler/npm-start.log,
// or npm-start.log inside the --persist-to directory, so two starts never share one. Only wrangler's
// [ERROR] lines are repeated on the terminal. Nothing here needs the network: wrangler's metrics
// are off, and so is its download of a sample `request.cf` object from workers.cloudflare.com,
// which offline printed a stack trace (the service then uses miniflare's placeholder, as it did
// offline anyway; CLOUDFLARE_CF_FETCH_ENABLED=true in the environment turns the download back on).
import { spawn } from 'node:child_process'
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { localPort, takeOption } from './local-port.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const wrangler = join(root, 'node_modules', 'wrangler', 'bin', 'wrangler.js')
const childEnv = {
  ...process.env,
  WRANGLER_SEND_METRICS: process.env.WRANGLER_SEND_METRICS ?? 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: process.env.CLOUDFLARE_CF_FETCH_ENABLED ?? 'false',
}

/** KEY=value lines of a .dev.vars file (values may be quoted). */
function readVars(path) {
  const vars = new Map()
  if (!existsSync(path)) return vars
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line)
    if (m) vars.set(m[1], m[2].replace(/^(['"])(.*)\1$/, '$2'))
  }
  return vars
}

/** Appends the missing keys; existing values (and other keys) are left as they are. */
function ensureVars(path, generators) {
  const existing = readVars(path)
  const missing = Object.entries(generators).filter(([key]) => !existing.has(key))
  if (missing.length > 0) {
    const before = existsSync(path) ? readFileSync(path, 'utf8') : ''
    const lines = missing.map(([key, make]) => `${key}=${make()}`)
    const separator = before === '' || before.endsWith('\n') ? '' : '\n'
    writeFileSync(path, `${before}${separator}${lines.join('\n')}\n`, { mode: 0o600 })
    console.log(`start: wrote ${missing.map(([key]) => key).join(', ')} to ${path.slice(root.length + 1)}`)
  }
  return readVars(path)
}

const serviceVars = ensureVars(join(root, '.dev.vars'), {
  // The platform API key the service sends and the sandbox expects (local only).
  PLATFORM_API_KEY: () => randomBytes(16).toString('hex'),
  // AES-256-GCM key for platform tokens at rest, base64 of 32 random bytes.
  PLATFORM_TOKEN_KEY: () => randomBytes(32).toString('base64'),
  // HMAC keys: the password pepper, and the key signing signed-out CSRF tokens.
  PASSWORD_PEPPER: () => randomBytes(32).toString('base64'),
  CSRF_SECRET: () => randomBytes(32).toString('base64'),
  // Web Push's VAPID key: a P-256 private JWK; the public key is derived from it.
  VAPID_PRIVATE_KEY: () => `'${JSON.stringify(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }))}'`,
})
const sandboxVarsPath = join(root, 'sandbox', '.dev.vars')
if (readVars(sandboxVarsPath).get('PLATFORM_API_KEY') !== serviceVars.get('PLATFORM_API_KEY')) {
  writeFileSync(sandboxVarsPath, `PLATFORM_API_KEY=${serviceVars.get('PLATFORM_API_KEY')}\n`, { mode: 0o600 })
}

const { port, rest: afterPort } = localPort(process.argv.slice(2))
const persistOption = takeOption(afterPort, '--persist-to')
const persistTo = persistOption.value ?? process.env.TABLEWATCH_PERSIST_TO
const persistArgs = persistTo ? ['--persist-to', persistTo] : []
const originArgs = serviceVars.has('PUBLIC_BASE_URL') ? [] : ['--var', `PUBLIC_BASE_URL:http://localhost:${port}`]

const logPath = persistTo ? join(resolve(persistTo), 'npm-start.log') : join(root, '.wrangler', 'npm-start.log')
mkdirSync(dirname(logPath), { recursive: true })
const log = createWriteStream(logPath)
const shownLogPath = logPath.startsWith(`${process.cwd()}/`) ? relative(process.cwd(), logPath) : logPath
/** The last lines wrangler printed, shown when it stops before the service is up. */
const recent = []

/** Runs wrangler with its output in the log (and the last lines kept), calling `onLine` per line. */
function wranglerLogged(args, onLine = () => {}) {
  // stdin is not a terminal, so `d1 migrations apply` applies without asking and `dev` shows no hotkeys.
  const child = spawn(process.execPath, [wrangler, ...args], { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] })
  for (const stream of [child.stdout, child.stderr]) {
    let partial = ''
    stream.on('data', (chunk) => {
      log.write(chunk)
      const lines = (partial + chunk.toString()).split('\n')
      partial = lines.pop() ?? ''
      for (const line of lines) {
        recent.push(line)
        if (recent.length > 30) recent.shift()
        onLine(line)
      }
    })
  }
  return child
}

function failed(what, code) {
  console.error(`start: ${what} (exit code ${code}). The last lines of ${shownLogPath}:\n${recent.join('\n')}`)
  log.end(() => process.exit(code || 1))
}

console.log(`Starting Tablewatch on port ${port}: the local D1 migrations, then the service and the sandbox platform.`)
console.log(`Full logs: ${shownLogPath}`)

const migrate = wranglerLogged(['d1', 'migrations', 'apply', 'DB', '--local', '-c', 'wrangler.toml', ...persistArgs])
const migrated = await new Promise((ok) => migrate.on('exit', (code) => ok(code)))
if (migrated !== 0) failed('applying the local D1 migrations failed', migrated)
else startService()

function startService() {
  let announcing = false
  let up = false
  const dev = wranglerLogged(
    [
      'dev',
      '-c',
      'wrangler.toml',
      '-c',
      'sandbox/wrangler.toml',
      '--port',
      port,
      '--var',
      'LOCAL_DEVELOPMENT:on',
      '--var',
      'SHOW_OUTBOX:on',
      ...originArgs,
      ...persistArgs,
      ...persistOption.rest,
    ],
    (line) => {
      if (/\[ERROR\]/.test(line)) console.error(`start: ${line.trim()} (details in ${shownLogPath})`)
      // wrangler says when it listens; the first answer of /health then takes the workers' start-up.
      if (/Ready on /.test(line) && !announcing) {
        announcing = true
        announceWhenUp().then((answered) => (up = answered))
      }
    },
  )
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => dev.kill(signal))
  dev.on('exit', (code, signal) => {
    if (!up && !signal) return failed('wrangler dev stopped before the service answered', code)
    log.end(() => process.exit(code ?? (signal ? 1 : 0)))
  })
}

/** What a newcomer does next, printed once the service answers. */
function nextSteps(origin) {
  const tokenCommand = persistTo ? `TABLEWATCH_PERSIST_TO=${persistTo} npm run -s dev:token` : 'npm run -s dev:token'
  return [
    '',
    `Tablewatch is up: ${origin}`,
    `  1. Open ${origin} and create an account; connect a sandbox platform account in Settings`,
    '     (any email and password: the sandbox accepts them).',
    `  2. A token for that account: ${tokenCommand} -- --email <the email you signed up with>`,
    '     (or create one on the Assistants page); the README\'s "API" section has the whole loop with curl.',
    `  3. Emails that would have been sent: ${origin}/outbox (linked from Notifications).`,
    '  4. On a request\'s page, "Open a matching table now" has the sandbox open a table that fits it.',
    '',
    `Requests and errors are logged to ${shownLogPath} (tail -f it to follow them). Stop with Ctrl-C.`,
  ].join('\n')
}

/** Waits for /health's first answer (one call at a time, each given time: the first one starts the workers). */
async function announceWhenUp() {
  const localOrigin = `http://localhost:${port}`
  const deadline = Date.now() + 300_000
  while (Date.now() < deadline) {
    const answered = await fetch(`${localOrigin}/health`, { signal: AbortSignal.timeout(60_000) }).then(
      (res) => res.ok,
      () => false,
    )
    if (answered) {
      console.log(nextSteps(serviceVars.get('PUBLIC_BASE_URL') ?? localOrigin))
      return true
    }
    await new Promise((ok) => setTimeout(ok, 1_000))
  }
  console.error(`start: ${localOrigin}/health has not answered for 5 minutes; see ${shownLogPath}`)
  return false
}
