// The user's platform session: the sealed tokens of their connection and the CDN's cookies that
// go with them, renewed with the refresh token (POST /3/auth/refresh, docs/platform.md "Sessions
// and refresh") ahead of expiry and whenever the platform rejects the auth token, so a user
// reconnects only when the refresh itself is refused. Tokens and cookies are secrets: decrypted
// for one use, never logged, sealed at rest (AES-GCM, bound to the user and to which secret it is).
import {
  type ConnectionRow,
  type CookieColumns,
  claimRenewal,
  findConnection,
  flagReauthRequired,
  releaseRenewal,
  type SessionColumns,
  saveCdnCookies,
  saveRenewedSession,
} from '../db/connections'
import { open, seal } from '../lib/secret-box'
import type { CdnCookies, Outcome, PlatformSession, RefreshCredentials, UserCredentials } from '../platform/api'
import { cdnCookiesOf } from '../platform/cdn-cookies'
import { renewalDue } from '../platform/session'
import type { Deps } from '../runtime/deps'
import { cloudAnswerOf, cloudRefusals, noteCloudAnswer } from './cloud-refusals'
import { refreshThroughDevice } from './device-refresh'
import { sessionLapsed } from './session-end'

/** Additional data of each sealed secret: a refresh ciphertext never opens as an auth token, nor cookies as either. */
const authOwner = (userId: string) => userId
const refreshOwner = (userId: string) => `${userId}:refresh`
const cookiesOwner = (userId: string) => `${userId}:cdn`

/** The columns that keep the session's CDN cookies (null for none). */
async function sealedCookies(key: string, userId: string, cookies: CdnCookies): Promise<CookieColumns> {
  if (Object.keys(cookies).length === 0) return { cdnCookiesCiphertext: null, cdnCookiesIv: null }
  const sealed = await seal(key, JSON.stringify(cookies), cookiesOwner(userId))
  return { cdnCookiesCiphertext: sealed.ciphertext, cdnCookiesIv: sealed.iv }
}

/** The columns that store a session from a sign-in or a refresh. */
export async function sealedSession(key: string, userId: string, session: PlatformSession, now: number): Promise<SessionColumns> {
  const token = await seal(key, session.authToken, authOwner(userId))
  const refresh = session.refreshToken === null ? null : await seal(key, session.refreshToken, refreshOwner(userId))
  return {
    tokenCiphertext: token.ciphertext,
    tokenIv: token.iv,
    refreshCiphertext: refresh?.ciphertext ?? null,
    refreshIv: refresh?.iv ?? null,
    refreshVia: session.refreshToken === null ? null : session.refreshVia,
    refreshExpiresAt: session.refreshToken === null ? null : session.refreshExpiresAt,
    tokenExpiresAt: session.expiresAt,
    tokenObtainedAt: now,
    ...(await sealedCookies(key, userId, session.cdnCookies)),
  }
}

interface Opened {
  credentials: UserCredentials
  refreshToken: string | null
}

async function unseal(deps: Deps, row: ConnectionRow): Promise<Opened | null> {
  try {
    const key = deps.env.PLATFORM_TOKEN_KEY
    const authToken = await open(key, { ciphertext: row.tokenCiphertext, iv: row.tokenIv }, authOwner(row.userId))
    const sealed = row.refreshCiphertext && row.refreshIv ? { ciphertext: row.refreshCiphertext, iv: row.refreshIv } : null
    const cookies = row.cdnCookiesCiphertext && row.cdnCookiesIv ? { ciphertext: row.cdnCookiesCiphertext, iv: row.cdnCookiesIv } : null
    const cdnCookies = cookies ? cdnCookiesOf(JSON.parse(await open(key, cookies, cookiesOwner(row.userId)))) : {}
    return { credentials: { authToken, cdnCookies }, refreshToken: sealed ? await open(key, sealed, refreshOwner(row.userId)) : null }
  } catch {
    return null // the key was rotated: the user must reconnect
  }
}

type Renewal = { kind: 'renewed'; credentials: UserCredentials } | { kind: 'refused' } | { kind: 'failed'; detail: string }

/** The stored session if another call renewed it since `row` was read. */
async function renewedSince(deps: Deps, row: ConnectionRow): Promise<Renewal | null> {
  const now = await findConnection(deps.db, row.userId)
  if (now?.state !== 'ok' || now.tokenCiphertext === row.tokenCiphertext) return null
  return storedRenewal(deps, now)
}

async function storedRenewal(deps: Deps, row: ConnectionRow): Promise<Renewal | null> {
  const opened = await unseal(deps, row)
  return opened ? { kind: 'renewed', credentials: opened.credentials } : null
}

/**
 * How long one renewal may hold the user's lease: the refresh call (8 s timeout), the paired
 * device's when the cloud's is refused (device-refresh.ts, 12 s), and the writes around them. A lease past this is a renewer that died.
 */
export const RENEWAL_LEASE_MS = 25_000

/** How often a call waiting for another call's renewal looks at the stored tokens. */
const WAIT_STEP_MS = 100

/**
 * Exchanges the refresh token for new tokens and stores them. A refresh token works once, so one
 * call per user renews at a time (a lease on the connection row, taken with a conditional
 * update); the others wait for its stored tokens, for at most a lease. Only the lease holder ever
 * calls the platform, so a refusal it gets is the platform's verdict on the refresh token, never
 * a sign that another call spent it first.
 */
async function renew(deps: Deps, row: ConnectionRow, refreshToken: string, cdnCookies: CdnCookies): Promise<Renewal> {
  const holder = crypto.randomUUID()
  const claim = () =>
    claimRenewal(deps.db, { userId: row.userId, replacing: row.tokenCiphertext, holder, now: Date.now(), leaseMs: RENEWAL_LEASE_MS })
  if (await claim()) return renewHolding(deps, row, { refreshToken, cdnCookies }, holder)
  const giveUpAt = Date.now() + RENEWAL_LEASE_MS
  for (;;) {
    const latest = await findConnection(deps.db, row.userId)
    // Reconnect needed (the holder's refresh was refused): the holder's caller tells the user.
    if (latest?.state !== 'ok') return { kind: 'refused' }
    if (latest.tokenCiphertext !== row.tokenCiphertext) return (await storedRenewal(deps, latest)) ?? { kind: 'refused' }
    // The lease ended without new tokens: that renewal failed (if the platform refused it, its
    // caller says so). Try again later rather than spend the refresh token in a burst.
    if (latest.renewalLeaseUntil === null) return { kind: 'failed', detail: 'token refresh: a concurrent renewal failed' }
    // A lease past its time is a renewer that died: take it over.
    if (latest.renewalLeaseUntil <= Date.now() && (await claim())) return renewHolding(deps, row, { refreshToken, cdnCookies }, holder)
    if (Date.now() >= giveUpAt) return { kind: 'failed', detail: 'token refresh: another renewal is still running' }
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS))
  }
}

/** The refresh call and its write, while holding the lease; the lease ends with either. */
async function renewHolding(
  deps: Deps,
  row: ConnectionRow,
  credentials: { refreshToken: string; cdnCookies: CdnCookies },
  holder: string,
): Promise<Renewal> {
  const got = await refreshFromEitherSide(deps, row.userId, credentials)
  if (got.kind === 'ok') {
    const renewed: UserCredentials = { authToken: got.value.authToken, cdnCookies: got.value.cdnCookies }
    const columns = await sealedSession(deps.env.PLATFORM_TOKEN_KEY, row.userId, got.value, deps.now)
    if (await saveRenewedSession(deps.db, row.userId, row.tokenCiphertext, columns)) return { kind: 'renewed', credentials: renewed }
    // Not stored: the user reconnected (or was flagged) meanwhile; their tokens win.
    await releaseRenewal(deps.db, row.userId, holder)
    return (await renewedSince(deps, row)) ?? { kind: 'renewed', credentials: renewed }
  }
  await releaseRenewal(deps.db, row.userId, holder)
  // A reconnect meanwhile brings new tokens: use them whatever the refresh said.
  const other = await renewedSince(deps, row)
  if (other) return other
  return got.kind === 'reauth' ? { kind: 'refused' } : { kind: 'failed', detail: `token refresh: ${got.kind}` }
}

/**
 * The refresh call: from the cloud, unless the platform refused the cloud's refresh last time;
 * then, or when it refuses it now, from the diner's side (the paired device) when one can make it.
 * A refused refresh from the cloud spent nothing (the CDN answered, not the platform), so the
 * device may send the same refresh token.
 */
async function refreshFromEitherSide(deps: Deps, userId: string, credentials: RefreshCredentials): Promise<Outcome<PlatformSession>> {
  const refusedBefore = (await cloudRefusals(deps, userId)).some((r) => r.call === 'refresh')
  if (refusedBefore) {
    const viaDevice = await refreshThroughDevice(deps, userId, credentials)
    if (viaDevice) return viaDevice
  }
  const got = await deps.platform.refresh(credentials)
  await noteCloudAnswer(deps, userId, 'refresh', cloudAnswerOf(got))
  if (got.kind !== 'blocked' || refusedBefore) return got
  return (await refreshThroughDevice(deps, userId, credentials)) ?? got
}

export interface UserSession {
  readonly paymentMethodId: number | null
  /** The auth token and the CDN's cookies to use now (renewed in place after a rejection). */
  credentials(): UserCredentials
  /**
   * A call with the user's credentials; when the platform rejects the token, the token is renewed
   * and the call made once more. `reauth` only when the refresh was refused too (the user must
   * reconnect); a refresh that merely failed, or a renewed token rejected again, is `unavailable`.
   * Cookies the CDN set meanwhile are stored with the session.
   */
  read<T>(call: (credentials: UserCredentials) => Promise<Outcome<T>>): Promise<Outcome<T>>
  /** A call that is never repeated (book): made once, its cookies stored. */
  once<T>(call: (credentials: UserCredentials) => Promise<T>): Promise<T>
  /** After a call that is never repeated (book) was rejected: renew for the next call. */
  renewAfterRejection(): Promise<Renewal>
}

/**
 * The user's working session, renewed first when its token is due; null when not connected,
 * the connection needs reconnecting, the session ended by itself (past its end: session-end.ts),
 * or the stored secrets no longer decrypt (then flagged).
 */
export async function userSession(deps: Deps, userId: string): Promise<UserSession | null> {
  const row = await findConnection(deps.db, userId)
  if (row?.state !== 'ok') return null
  // Without a refresh token the session ends at its token's `exp`: never sent after it (the
  // caller asks the user to reconnect, StepSession.rejected).
  if (sessionLapsed(row, deps.now)) return null
  const opened = await unseal(deps, row)
  if (!opened) {
    await flagReauthRequired(deps.db, userId, deps.now)
    return null
  }
  let current = opened.credentials
  if (opened.refreshToken && renewalDue({ expiresAt: row.tokenExpiresAt, obtainedAt: row.tokenObtainedAt }, deps.now)) {
    // Ahead of expiry: a failed or refused refresh leaves the current token in use until rejected.
    const renewal = await renew(deps, row, opened.refreshToken, current.cdnCookies)
    if (renewal.kind === 'renewed') current = renewal.credentials
  }

  let renewing: Promise<Renewal> | null = null

  /** One renewal at a time per session: calls rejected together share it. */
  function renewAfterRejection(rejectedToken = current.authToken): Promise<Renewal> {
    if (rejectedToken !== current.authToken) return Promise.resolve({ kind: 'renewed', credentials: current }) // renewed meanwhile
    renewing ??= renewOnce().finally(() => {
      renewing = null
    })
    return renewing
  }

  async function renewOnce(): Promise<Renewal> {
    const latest = await findConnection(deps.db, userId)
    if (latest?.state !== 'ok') return { kind: 'refused' }
    const stored = await unseal(deps, latest)
    if (!stored) return { kind: 'refused' }
    const renewal: Renewal =
      stored.credentials.authToken !== current.authToken
        ? { kind: 'renewed', credentials: stored.credentials } // renewed by another call meanwhile
        : stored.refreshToken
          ? await renew(deps, latest, stored.refreshToken, current.cdnCookies)
          : { kind: 'refused' }
    if (renewal.kind === 'renewed') current = renewal.credentials
    return renewal
  }

  /** Makes the call, then stores the cookies the CDN set during it (with the token they belong to). */
  async function withCookies<T>(credentials: UserCredentials, call: (c: UserCredentials) => Promise<T>): Promise<T> {
    const before = JSON.stringify(credentials.cdnCookies)
    const result = await call(credentials)
    if (JSON.stringify(credentials.cdnCookies) !== before) await storeCookies(credentials)
    return result
  }

  async function storeCookies(credentials: UserCredentials): Promise<void> {
    const latest = await findConnection(deps.db, userId)
    if (latest?.state !== 'ok') return
    const stored = await unseal(deps, latest)
    // Only for the session they came with: a session renewed meanwhile has cookies of its own.
    if (stored?.credentials.authToken !== credentials.authToken) return
    await saveCdnCookies(
      deps.db,
      userId,
      latest.tokenCiphertext,
      await sealedCookies(deps.env.PLATFORM_TOKEN_KEY, userId, credentials.cdnCookies),
    )
  }

  return {
    paymentMethodId: row.paymentMethodId,
    credentials: () => current,
    renewAfterRejection: () => renewAfterRejection(),
    once: (call) => withCookies(current, call),
    async read(call) {
      const used = current
      const first = await withCookies(used, call)
      if (first.kind !== 'reauth') return first
      const renewal = await renewAfterRejection(used.authToken)
      if (renewal.kind === 'refused') return first
      if (renewal.kind === 'failed') return { kind: 'unavailable', detail: renewal.detail }
      const again = await withCookies(current, call)
      // The renewed token rejected too (it expired meanwhile, or the platform is confused): the
      // refresh token works, so this is not the user's to fix; the next call renews again.
      return again.kind === 'reauth' ? { kind: 'unavailable', detail: 'the platform rejected a renewed token' } : again
    },
  }
}

/** The user's credentials and card for one call (renewed first when due); null when there is no working session. */
export async function platformSessionOf(
  deps: Deps,
  userId: string,
): Promise<{ credentials: UserCredentials; paymentMethodId: number | null } | null> {
  const session = await userSession(deps, userId)
  return session ? { credentials: session.credentials(), paymentMethodId: session.paymentMethodId } : null
}
