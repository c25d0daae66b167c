// Local development only: creates (or reuses) a demo user in the LOCAL D1 state that
// `npm start` uses, and prints a new personal access token with all four scopes.
// It never talks to a remote database: every wrangler call below carries --local, and the
// script refuses any argument that could point it elsewhere.
import { execFileSync } from 'node:child_process'
import { randomBase62, sha256Hex } from '../src/lib/random.ts'

const args = process.argv.slice(2)
if (args.length > 0 || process.env.CLOUDFLARE_API_TOKEN || process.env.CI_REMOTE) {
  console.error('dev:token works only on the local development state and takes no arguments.')
  process.exit(2)
}

const DAY = 24 * 60 * 60 * 1000
const now = Date.now()
const email = 'demo@tablewatch.local'
const token = `spt_${randomBase62(32)}`
const tokenHash = await sha256Hex(token)
const scopes = JSON.stringify(['restaurants:read', 'requests:read', 'requests:write', 'reservations:read'])

function d1(sql) {
  execFileSync('wrangler', ['d1', 'execute', 'DB', '--local', '--command', sql], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
  })
}

execFileSync('wrangler', ['d1', 'migrations', 'apply', 'DB', '--local'], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
})
d1(`INSERT INTO users (id, email, email_alerts, created_at) VALUES ('usr_demo', '${email}', 1, ${now}) ON CONFLICT (email) DO NOTHING`)
d1(
  `INSERT INTO access_tokens (id, user_id, name, token_hash, hint, scopes, created_at, expires_at)
   SELECT 'pat_dev${randomBase62(8)}', id, 'dev:token', '${tokenHash}', '${token.slice(0, 8)}…${token.slice(-4)}', '${scopes}', ${now}, ${now + 90 * DAY}
   FROM users WHERE email = '${email}'`,
)
console.log(`Demo user: ${email} (local state only)`)
console.log(token)
