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
// otherwise. Unless .dev.vars sets PUBLIC_BASE_URL, the service's public origin (links, the OAuth
// issuer, the MCP resource) is http://localhost:<that port>, so OAuth works on any port. A
// `--persist-to DIR` argument (or the TABLEWATCH_PERSIST_TO environment variable, which
// `npm run dev:token` reads too) also decides where the migrations are applied.
//
// LOCAL_DEVELOPMENT=on and SHOW_OUTBOX=on are passed here (`--var`), not kept in wrangler.toml's
// [vars], so that a `wrangler deploy` without `--env production` never carries them
// (docs/decisions/deploy.md).
// Once /health answers, the next steps are printed: the URL, how to get a token, the outbox.
import { spawn, spawnSync } from 'node:child_process'
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const wrangler = join(root, 'node_modules', 'wrangler', 'bin', 'wrangler.js')
const childEnv = { ...process.env, WRANGLER_SEND_METRICS: process.env.WRANGLER_SEND_METRICS ?? 'false' }

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

/** The value of `--name value` or `--name=value` in the arguments, and the arguments without it. */
function takeOption(args, name) {
  const rest = []
  let value
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    if (arg === name && i + 1 < args.length) value = args[++i]
    else if (arg.startsWith(`${name}=`)) value = arg.slice(name.length + 1)
    else rest.push(arg)
  }
  return { value, rest }
}

const { value: portArg, rest: devArgs } = takeOption(process.argv.slice(2), '--port')
const port = portArg ?? process.env.PORT ?? '8787'
if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
  console.error(`start: the port must be a number from 1 to 65535, not "${port}"`)
  process.exit(2)
}
const persistOption = takeOption(devArgs, '--persist-to')
const persistTo = persistOption.value ?? process.env.TABLEWATCH_PERSIST_TO
const persistArgs = persistTo ? ['--persist-to', persistTo] : []
const originArgs = serviceVars.has('PUBLIC_BASE_URL') ? [] : ['--var', `PUBLIC_BASE_URL:http://localhost:${port}`]

// stdin is not a terminal here, so wrangler applies without asking.
const migrate = spawnSync(
  process.execPath,
  [wrangler, 'd1', 'migrations', 'apply', 'DB', '--local', '-c', 'wrangler.toml', ...persistArgs],
  { cwd: root, env: childEnv, stdio: ['ignore', 'inherit', 'inherit'] },
)
if (migrate.status !== 0) {
  console.error('start: applying the local D1 migrations failed')
  process.exit(migrate.status ?? 1)
}

const dev = spawn(
  process.execPath,
  [
    wrangler,
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
  { cwd: root, env: childEnv, stdio: 'inherit' },
)
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => dev.kill(signal))
dev.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))

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
  ].join('\n')
}

const localOrigin = `http://localhost:${port}`
const readyBy = Date.now() + 300_000
async function announceWhenUp() {
  while (dev.exitCode === null && Date.now() < readyBy) {
    const up = await fetch(`${localOrigin}/health`, { signal: AbortSignal.timeout(2_000) }).then(
      (res) => res.ok,
      () => false,
    )
    if (up) return console.log(nextSteps(serviceVars.get('PUBLIC_BASE_URL') ?? localOrigin))
    await new Promise((ok) => setTimeout(ok, 1_000))
  }
}
announceWhenUp()
