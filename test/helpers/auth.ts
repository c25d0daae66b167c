// Users and personal access tokens written straight into D1, the way the assistants page
// will create them: only the SHA-256 of the token is stored.
import { env } from 'cloudflare:test'

export const ALL_SCOPES = ['restaurants:read', 'requests:read', 'requests:write', 'reservations:read'] as const
export type TestScope = (typeof ALL_SCOPES)[number]

const DAY_MS = 86_400_000
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

export function randomBase62(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length))
  return Array.from(bytes, (b) => BASE62[b % 62]).join('')
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('')
}

export interface TokenOptions {
  scopes?: readonly TestScope[]
  /** ms since epoch; 90 days from now unless given. */
  expiresAt?: number
  /** ms since epoch; the token counts as revoked from then on. */
  revokedAt?: number
}

export interface TestToken {
  token: string
  tokenId: string
}

export async function createUser(): Promise<string> {
  const userId = `usr_${randomBase62(16)}`
  await env.DB.prepare('insert into users (id, email, created_at, email_alerts) values (?, ?, ?, 1)')
    .bind(userId, `${userId.toLowerCase()}@example.test`, Date.now())
    .run()
  return userId
}

export async function createTokenForUser(
  userId: string,
  scopes: readonly TestScope[] = ALL_SCOPES,
  options: Omit<TokenOptions, 'scopes'> = {},
): Promise<TestToken> {
  const token = `spt_${randomBase62(43)}`
  const tokenId = `pat_${randomBase62(16)}`
  const now = Date.now()
  await env.DB.prepare(
    `insert into access_tokens (id, user_id, name, token_hash, hint, scopes, created_at, expires_at, last_used_at, revoked_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, null, ?)`,
  )
    .bind(
      tokenId,
      userId,
      'test token',
      await sha256Hex(token),
      token.slice(-4),
      JSON.stringify(scopes),
      now,
      options.expiresAt ?? now + 90 * DAY_MS,
      options.revokedAt ?? null,
    )
    .run()
  return { token, tokenId }
}

export async function createUserWithToken(options: TokenOptions = {}): Promise<TestToken & { userId: string }> {
  const userId = await createUser()
  const { scopes, ...rest } = options
  const created = await createTokenForUser(userId, scopes ?? ALL_SCOPES, rest)
  return { userId, ...created }
}

/** Every scope but the one named: a valid token that must still be refused by that scope's routes. */
export function scopesWithout(missing: TestScope): TestScope[] {
  return ALL_SCOPES.filter((s) => s !== missing)
}
