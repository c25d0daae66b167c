// The platform's user tokens, as the evidence describes them (docs/platform.md, "Sessions and refresh"):
// the auth token is a JWT whose payload has `exp`, `uid`, `gt: "consumer"` and
// `extra.guest_id` (about 45 days); login and refresh also set a `production_refresh_token`
// cookie (about 90 days) that `POST /3/auth/refresh` exchanges for a new pair (`Cierge:resy/auth.go`).
// Here a refresh token works once: the strict reading, since nothing says it can be reused.
// Lifetimes are per world, so tests can make tokens expire in seconds.
import { type TokenLifetimes, tokenLifetimesSchema } from '../schemas'
import { randomToken, refreshTokenValue } from './schema'

export const DEFAULT_AUTH_TTL_SECONDS = 45 * 86_400
export const DEFAULT_REFRESH_TTL_SECONDS = 90 * 86_400

export interface IssuedTokens {
  token: string
  refreshToken: string
  refreshExpiresAt: number
}

type Kind = 'auth' | 'refresh'

const base64url = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')

export function setTokenLifetimes(sql: SqlStorage, lifetimes: TokenLifetimes): void {
  const l = tokenLifetimesSchema.parse(lifetimes)
  sql.exec("INSERT OR REPLACE INTO settings (key, value) VALUES ('auth_ttl_seconds', ?)", String(l.authSeconds))
  sql.exec("INSERT OR REPLACE INTO settings (key, value) VALUES ('refresh_ttl_seconds', ?)", String(l.refreshSeconds))
}

function lifetimeOf(sql: SqlStorage, key: 'auth_ttl_seconds' | 'refresh_ttl_seconds', fallback: number): number {
  const row = sql.exec<{ value: string }>('SELECT value FROM settings WHERE key = ?', key).toArray()[0]
  return row ? Number(row.value) : fallback
}

/** A new auth token (JWT-shaped, signature not meant to be checked) and refresh token for the account. */
export function issueTokens(sql: SqlStorage, email: string, userId: number, now: number): IssuedTokens {
  const authExpiresAt = now + lifetimeOf(sql, 'auth_ttl_seconds', DEFAULT_AUTH_TTL_SECONDS) * 1000
  const refreshExpiresAt = now + lifetimeOf(sql, 'refresh_ttl_seconds', DEFAULT_REFRESH_TTL_SECONDS) * 1000
  const payload = { exp: Math.floor(authExpiresAt / 1000), uid: userId, gt: 'consumer', gs: [], extra: { guest_id: userId + 9_000_000 } }
  const token = `${base64url(JSON.stringify({ typ: 'JWT', alg: 'ES256' }))}.${base64url(JSON.stringify(payload))}.${randomToken()}`
  const refreshToken = refreshTokenValue()
  const insert = 'INSERT INTO user_tokens (token, email, kind, expires_at) VALUES (?, ?, ?, ?)'
  sql.exec(insert, token, email, 'auth' satisfies Kind, authExpiresAt)
  sql.exec(insert, refreshToken, email, 'refresh' satisfies Kind, refreshExpiresAt)
  return { token, refreshToken, refreshExpiresAt }
}

/** The account email a live token of that kind belongs to, or null (unknown, expired, used). */
export function emailOfToken(sql: SqlStorage, token: string, kind: Kind, now: number): string | null {
  const row = sql
    .exec<{ email: string }>('SELECT email FROM user_tokens WHERE token = ? AND kind = ? AND expires_at > ?', token, kind, now)
    .toArray()[0]
  return row?.email ?? null
}

/** Uses up a refresh token; true when it was live. */
export function spendRefreshToken(sql: SqlStorage, token: string, now: number): boolean {
  return sql.exec("DELETE FROM user_tokens WHERE token = ? AND kind = 'refresh' AND expires_at > ?", token, now).rowsWritten > 0
}

/**
 * Every live auth token of the world expires now, as if its lifetime had run out (refresh tokens
 * keep theirs); returns how many. A token can be rejected before the `exp` its JWT states.
 */
export function expireAuthTokens(sql: SqlStorage, now: number): number {
  return sql.exec("UPDATE user_tokens SET expires_at = ? WHERE kind = 'auth' AND expires_at > ?", now, now).rowsWritten
}

/** Every token of the account stops working; returns how many auth tokens there were. */
export function dropTokens(sql: SqlStorage, email: string): number {
  const auth = sql.exec("SELECT 1 FROM user_tokens WHERE email = ? AND kind = 'auth'", email).toArray().length
  sql.exec('DELETE FROM user_tokens WHERE email = ?', email)
  return auth
}
