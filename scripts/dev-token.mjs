// Local development only: prints a new personal access token (all four scopes, 90 days) from the
// LOCAL D1 state that `npm start` uses.
//   npm run -s dev:token                              a demo user's token (demo@tablewatch.local,
//                                                     created if missing; it has no password, so
//                                                     its requests show in no browser session)
//   npm run -s dev:token -- --email you@example.com   a token for the account you created in the
//                                                     browser: its requests show on your pages
// TABLEWATCH_PERSIST_TO=DIR picks the state directory, as it does for `npm start`.
// It never talks to a remote database: every wrangler call below carries --local, and the
// script refuses anything that could point it elsewhere. The token is the last line printed.
import { execFileSync } from 'node:child_process'
import { randomBase62, sha256Hex } from '../src/lib/random.ts'

const USAGE = 'usage: npm run -s dev:token [-- --email <the email of an account created in the browser>]'

/** The --email value (also --email=value), or null for the demo user; exits on anything else. */
function emailArgument(args) {
  if (args.length === 0) return null
  const value = args[0] === '--email' && args.length === 2 ? args[1] : args.length === 1 ? /^--email=(.*)$/.exec(args[0])?.[1] : undefined
  if (value === undefined) {
    console.error(`dev:token: unexpected arguments "${args.join(' ')}".\n${USAGE}`)
    process.exit(2)
  }
  const email = value.trim().toLowerCase()
  // The same shape the sign-up form accepts; never spliced into SQL unchecked.
  if (!/^[^\s@'"\\;]+@[^\s@'"\\;]+\.[^\s@'"\\;]+$/.test(email) || email.length > 254) {
    console.error(`dev:token: "${value}" is not an email address.\n${USAGE}`)
    process.exit(2)
  }
  return email
}

if (process.env.CLOUDFLARE_API_TOKEN || process.env.CI_REMOTE) {
  console.error('dev:token works only on the local development state.')
  process.exit(2)
}
const wanted = emailArgument(process.argv.slice(2))

const DAY = 24 * 60 * 60 * 1000
const now = Date.now()
const DEMO_EMAIL = 'demo@tablewatch.local'
const token = `spt_${randomBase62(32)}`
const tokenHash = await sha256Hex(token)
const scopes = JSON.stringify(['restaurants:read', 'requests:read', 'requests:write', 'reservations:read'])
const persist = process.env.TABLEWATCH_PERSIST_TO ? ['--persist-to', process.env.TABLEWATCH_PERSIST_TO] : []
const wranglerEnv = { ...process.env, WRANGLER_SEND_METRICS: 'false' }

function d1(sql) {
  return execFileSync('wrangler', ['d1', 'execute', 'DB', '--local', ...persist, '--json', '--command', sql], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: wranglerEnv,
    encoding: 'utf8',
  })
}

/** The rows of a one-statement query (wrangler's --json answer). */
function rows(sql) {
  const answer = JSON.parse(d1(sql))
  return Array.isArray(answer) ? (answer[0]?.results ?? []) : []
}

// The demo user may come before the first `npm start`, so the tables may not exist yet. An account
// made in the browser means npm start migrated the state already; applying migrations again from
// this second process while `wrangler dev` holds the database once read a stale list of applied
// migrations and failed (docs/decisions/local-development.md), so --email leaves them alone.
if (wanted === null) {
  execFileSync('wrangler', ['d1', 'migrations', 'apply', 'DB', '--local', ...persist], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: wranglerEnv,
  })
}

const email = wanted ?? DEMO_EMAIL
if (wanted === null) {
  d1(
    `INSERT INTO users (id, email, email_alerts, created_at) VALUES ('usr_demo', '${DEMO_EMAIL}', 1, ${now}) ON CONFLICT (email) DO NOTHING`,
  )
} else if (rows(`SELECT id FROM users WHERE email = '${email}'`).length === 0) {
  console.error(
    `dev:token: no account ${email} in the local state. Create it in the browser first (http://localhost:8787, "Create account"),\n` +
      'with the same email, while `npm start` runs; or run `npm run -s dev:token` without --email for a demo user.',
  )
  process.exit(1)
}
d1(
  `INSERT INTO access_tokens (id, user_id, name, token_hash, hint, scopes, created_at, expires_at)
   SELECT 'pat_dev${randomBase62(8)}', id, 'dev:token', '${tokenHash}', '${token.slice(0, 8)}…${token.slice(-4)}', '${scopes}', ${now}, ${now + 90 * DAY}
   FROM users WHERE email = '${email}'`,
)
console.log(
  wanted === null
    ? `Demo user: ${DEMO_EMAIL} (local state only; no password, so its requests show in no browser session)`
    : `Account: ${email} (local state only)`,
)
console.log(token)
