// The platform's user tokens, as the evidence describes them (docs/platform.md, "Sessions and
// refresh"): the auth token is a JWT whose payload has `exp`, `uid`, `gt: "consumer"` and
// `extra.guest_id` (about 45 days); a password sign-in also hands out a refresh token (about 90
// days) as the `production_refresh_token` cookie (`Cierge:resy/auth.go`) or, in the Aug-2026
// client's reading, a `refresh_token` body field ([idx 57928723907]); a code sign-in may hand out
// none ([idx 57928723907]: "token and legacy_token and nothing else"). `POST /3/auth/refresh`
// exchanges a refresh token for a new pair, in the form the old one came. Here a refresh token
// works once: the strict reading, since nothing says it can be reused. Lifetimes are per world, so
// tests can make tokens expire in seconds.
import { type TokenLifetimes, tokenLifetimesSchema } from '../schemas'
import { randomToken, refreshTokenValue } from './schema'

export const DEFAULT_AUTH_TTL_SECONDS = 45 * 86_400
export const DEFAULT_REFRESH_TTL_SECONDS = 90 * 86_400

/** How a refresh token travels: the cookie, or the body field. */
export type RefreshVia = 'cookie' | 'body'

export interface IssuedTokens {
  token: string
  /** Null for a session that cannot be renewed (a code sign-in's, by default). */
  refresh: { token: string; via: RefreshVia; expiresAt: number } | null
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

/** A new auth token (JWT-shaped, signature not meant to be checked) and, unless `refresh` is none, a refresh token. */
export function issueTokens(sql: SqlStorage, email: string, userId: number, now: number, refresh: RefreshVia | 'none'): IssuedTokens {
  const authExpiresAt = now + lifetimeOf(sql, 'auth_ttl_seconds', DEFAULT_AUTH_TTL_SECONDS) * 1000
  const refreshExpiresAt = now + lifetimeOf(sql, 'refresh_ttl_seconds', DEFAULT_REFRESH_TTL_SECONDS) * 1000
  const payload = { exp: Math.floor(authExpiresAt / 1000), uid: userId, gt: 'consumer', gs: [], extra: { guest_id: userId + 9_000_000 } }
  const token = `${base64url(JSON.stringify({ typ: 'JWT', alg: 'ES256' }))}.${base64url(JSON.stringify(payload))}.${randomToken()}`
  const insert = 'INSERT INTO user_tokens (token, email, kind, expires_at, via) VALUES (?, ?, ?, ?, ?)'
  sql.exec(insert, token, email, 'auth' satisfies Kind, authExpiresAt, '')
  if (refresh === 'none') return { token, refresh: null }
  const refreshToken = refreshTokenValue()
  sql.exec(insert, refreshToken, email, 'refresh' satisfies Kind, refreshExpiresAt, refresh)
  return { token, refresh: { token: refreshToken, via: refresh, expiresAt: refreshExpiresAt } }
}

/** How a live refresh token was handed out ('cookie' for one stored before the column). */
export function viaOfRefreshToken(sql: SqlStorage, token: string): RefreshVia {
  const row = sql.exec<{ via: string }>("SELECT via FROM user_tokens WHERE token = ? AND kind = 'refresh'", token).toArray()[0]
  return row?.via === 'body' ? 'body' : 'cookie'
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
