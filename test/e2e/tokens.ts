// A personal access token with every scope for a fresh user, written into the running service's
// local D1 the way the assistants page stores one (only its SHA-256), for suites that need a
// token but not the pages.
import { createHash, randomBytes } from 'node:crypto'
import { executeSql, literal } from './d1'

export async function seededToken(name = 'e2e'): Promise<string> {
  const token = `spt_${randomBytes(24).toString('hex')}`
  const hash = createHash('sha256').update(token).digest('hex')
  const now = Date.now()
  const userId = `usr_e2e${randomBytes(6).toString('hex')}`
  const scopes = JSON.stringify(['restaurants:read', 'requests:read', 'requests:write', 'reservations:read'])
  await executeSql(
    `insert into users (id, email, created_at, email_alerts) values (${literal(userId)}, ${literal(`${userId}@example.com`)}, ${now}, 1);` +
      `insert into access_tokens (id, user_id, name, token_hash, hint, scopes, created_at, expires_at, last_used_at, revoked_at)` +
      ` values (${literal(`pat_${userId}`)}, ${literal(userId)}, ${literal(name)}, ${literal(hash)}, 'e2e', ${literal(scopes)}, ${now}, ${now + 90 * 86_400_000}, null, null);`,
  )
  return token
}
