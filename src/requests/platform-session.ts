// The user's platform session: the sealed tokens of their connection, renewed with the refresh
// token (POST /3/auth/refresh, shared/reference/resy-api.md §10) ahead of expiry and whenever the
// platform rejects the auth token, so a user reconnects only when the refresh itself is refused.
// Both tokens are secrets: decrypted for one use, never logged, sealed at rest (AES-GCM, bound
// to the user and to which token it is).
import { type ConnectionRow, findConnection, flagReauthRequired, type SessionColumns, saveRenewedSession } from '../db/connections'
import { open, seal } from '../lib/secret-box'
import type { Outcome, PlatformSession } from '../platform/api'
import type { Deps } from './deps'

/** A token is renewed when less than a quarter of its life, and at most this, is left. */
export const RENEW_AHEAD_MAX_MS = 24 * 60 * 60 * 1000

/** Additional data of each sealed token: a refresh ciphertext never opens as an auth token. */
const authOwner = (userId: string) => userId
const refreshOwner = (userId: string) => `${userId}:refresh`

export function renewalDue(row: Pick<ConnectionRow, 'tokenExpiresAt' | 'tokenObtainedAt'>, now: number): boolean {
  if (row.tokenExpiresAt === null) return false // no `exp` to go by: renewed when rejected
  const life = row.tokenObtainedAt === null ? Number.POSITIVE_INFINITY : row.tokenExpiresAt - row.tokenObtainedAt
  return row.tokenExpiresAt - now <= Math.min(RENEW_AHEAD_MAX_MS, life / 4)
}

/** The columns that store a session from login or refresh. */
export async function sealedSession(key: string, userId: string, session: PlatformSession, now: number): Promise<SessionColumns> {
  const token = await seal(key, session.authToken, authOwner(userId))
  const refresh = session.refreshToken === null ? null : await seal(key, session.refreshToken, refreshOwner(userId))
  return {
    tokenCiphertext: token.ciphertext,
    tokenIv: token.iv,
    refreshCiphertext: refresh?.ciphertext ?? null,
    refreshIv: refresh?.iv ?? null,
    tokenExpiresAt: session.expiresAt,
    tokenObtainedAt: now,
  }
}

interface Opened {
  authToken: string
  refreshToken: string | null
}

async function unseal(deps: Deps, row: ConnectionRow): Promise<Opened | null> {
  try {
    const key = deps.env.PLATFORM_TOKEN_KEY
    const authToken = await open(key, { ciphertext: row.tokenCiphertext, iv: row.tokenIv }, authOwner(row.userId))
    const sealed = row.refreshCiphertext && row.refreshIv ? { ciphertext: row.refreshCiphertext, iv: row.refreshIv } : null
    return { authToken, refreshToken: sealed ? await open(key, sealed, refreshOwner(row.userId)) : null }
  } catch {
    return null // the key was rotated: the user must reconnect
  }
}

export type Renewal = { kind: 'renewed'; authToken: string } | { kind: 'refused' } | { kind: 'failed'; detail: string }

/** The stored session if another call renewed it since `row` was read. */
async function renewedSince(deps: Deps, row: ConnectionRow): Promise<Renewal | null> {
  const now = await findConnection(deps.db, row.userId)
  if (now?.state !== 'ok' || now.tokenCiphertext === row.tokenCiphertext) return null
  const opened = await unseal(deps, now)
  return opened ? { kind: 'renewed', authToken: opened.authToken } : null
}

/**
 * Exchanges the refresh token for new tokens and stores them. A refresh token may work only once:
 * when two calls race, the one whose write lands first wins and the other uses its tokens.
 */
async function renew(deps: Deps, row: ConnectionRow, refreshToken: string): Promise<Renewal> {
  const got = await deps.platform.refresh(refreshToken)
  if (got.kind === 'ok') {
    const columns = await sealedSession(deps.env.PLATFORM_TOKEN_KEY, row.userId, got.value, deps.now)
    if (await saveRenewedSession(deps.db, row.userId, row.tokenCiphertext, columns))
      return { kind: 'renewed', authToken: got.value.authToken }
    return (await renewedSince(deps, row)) ?? { kind: 'renewed', authToken: got.value.authToken }
  }
  // Refused because another call spent the refresh token first? Its tokens land in a moment.
  const other = (await renewedSince(deps, row)) ?? (got.kind === 'reauth' ? await renewedSinceAfter(deps, row, RACE_PAUSE_MS) : null)
  if (other) return other
  return got.kind === 'reauth' ? { kind: 'refused' } : { kind: 'failed', detail: `token refresh: ${got.kind}` }
}

/** How long a refused refresh waits for a racing renewal's tokens to be stored, before concluding. */
const RACE_PAUSE_MS = 1000

async function renewedSinceAfter(deps: Deps, row: ConnectionRow, pauseMs: number): Promise<Renewal | null> {
  await new Promise((resolve) => setTimeout(resolve, pauseMs))
  return renewedSince(deps, row)
}

export interface UserSession {
  readonly paymentMethodId: number | null
  /** The auth token to use now (renewed in place after a rejection). */
  authToken(): string
  /**
   * A read with the user's token; when the platform rejects it, the token is renewed and the read
   * made once more. `reauth` only when the refresh was refused too (the user must reconnect);
   * a refresh that merely failed is `unavailable`.
   */
  read<T>(call: (authToken: string) => Promise<Outcome<T>>): Promise<Outcome<T>>
  /** After a call that is never repeated (book) was rejected: renew for the next call. */
  renewAfterRejection(): Promise<Renewal>
}

/**
 * The user's working session, renewed first when its token is due; null when not connected,
 * the connection needs reconnecting, or the stored tokens no longer decrypt (then flagged).
 */
export async function userSession(deps: Deps, userId: string): Promise<UserSession | null> {
  const row = await findConnection(deps.db, userId)
  if (row?.state !== 'ok') return null
  const opened = await unseal(deps, row)
  if (!opened) {
    await flagReauthRequired(deps.db, userId, deps.now)
    return null
  }
  let current = opened.authToken
  if (opened.refreshToken && renewalDue(row, deps.now)) {
    // Ahead of expiry: a failed or refused refresh leaves the current token in use until rejected.
    const renewal = await renew(deps, row, opened.refreshToken)
    if (renewal.kind === 'renewed') current = renewal.authToken
  }

  let renewing: Promise<Renewal> | null = null

  /** One renewal at a time per session: calls rejected together share it. */
  function renewAfterRejection(rejectedToken = current): Promise<Renewal> {
    if (rejectedToken !== current) return Promise.resolve({ kind: 'renewed', authToken: current }) // renewed meanwhile
    renewing ??= renewOnce().finally(() => {
      renewing = null
    })
    return renewing
  }

  async function renewOnce(): Promise<Renewal> {
    const latest = await findConnection(deps.db, userId)
    if (latest?.state !== 'ok') return { kind: 'refused' }
    const tokens = await unseal(deps, latest)
    if (!tokens) return { kind: 'refused' }
    const renewal: Renewal =
      tokens.authToken !== current
        ? { kind: 'renewed', authToken: tokens.authToken } // renewed by another call meanwhile
        : tokens.refreshToken
          ? await renew(deps, latest, tokens.refreshToken)
          : { kind: 'refused' }
    if (renewal.kind === 'renewed') current = renewal.authToken
    return renewal
  }

  return {
    paymentMethodId: row.paymentMethodId,
    authToken: () => current,
    renewAfterRejection: () => renewAfterRejection(),
    async read(call) {
      const used = current
      const first = await call(used)
      if (first.kind !== 'reauth') return first
      const renewal = await renewAfterRejection(used)
      if (renewal.kind === 'refused') return first
      if (renewal.kind === 'failed') return { kind: 'unavailable', detail: renewal.detail }
      return call(current)
    },
  }
}

/** The user's auth token and card for one call (renewed first when due); null when there is no working session. */
export async function platformSessionOf(deps: Deps, userId: string): Promise<{ authToken: string; paymentMethodId: number | null } | null> {
  const session = await userSession(deps, userId)
  return session ? { authToken: session.authToken(), paymentMethodId: session.paymentMethodId } : null
}
