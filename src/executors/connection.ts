// Connecting the user's reservation-platform account. The password is used once, to log in,
// and never stored; only the platform's tokens are kept, encrypted (platform-session.ts). The
// sign-in by a code, and sign-ins made by a paired device, are platform-sign-in.ts.
import { deleteConnection, findConnection, flagReauthRequired, saveConnection, updateConnectionState } from '../db/connections'
import { AppError } from '../errors'
import { newReceiverKey } from '../lib/sealed-to-key'
import type { Deps } from '../runtime/deps'
import { revokeRequestsOf, wakeRequestsOf } from '../runtime/open-requests'
import { sealedSession, userSession } from './platform-session'
import type { SignInVia } from './platform-sign-in-pending'
import { type SignedIn, type SignInProblem, signerOf } from './platform-sign-in-signers'
import { signInWords } from './platform-sign-in-words'
import { sessionEndOf, sessionLapsed } from './session-end'

/** The contract's wording; every page and error that warns the user uses this text. */
export const RISK_NOTICE = "The reservation platform's terms prohibit automated access and it may deactivate accounts that use such tools."

/** How long a successful account check is trusted before capabilities check again. */
const ACCOUNT_CHECK_TTL_MS = 10 * 60 * 1000

export interface ConnectionStatus {
  connected: boolean
  displayName: string | null
  paymentMethodOnFile: boolean
  needsReconnect: boolean
  connectedAt: string | null
  /** When the sign-in ends by itself (no refresh token); null when it renews itself or the end is unknown. */
  endsAt: string | null
}

const notConnected: ConnectionStatus = {
  connected: false,
  displayName: null,
  paymentMethodOnFile: false,
  needsReconnect: false,
  connectedAt: null,
  endsAt: null,
}

export async function connectionStatus(deps: Deps, userId: string): Promise<ConnectionStatus> {
  const row = await findConnection(deps.db, userId)
  if (!row) return notConnected
  const endsAt = sessionEndOf(row)
  return {
    connected: true,
    displayName: row.displayName,
    paymentMethodOnFile: row.paymentMethodId !== null,
    needsReconnect: row.state === 'reauth_required' || sessionLapsed(row, deps.now),
    connectedAt: new Date(row.connectedAt).toISOString(),
    endsAt: endsAt === null ? null : new Date(endsAt).toISOString(),
  }
}

/** Keeps a new platform session (sealed) as the user's connection, and wakes their requests. */
export async function saveSignedIn(deps: Deps, userId: string, session: SignedIn): Promise<ConnectionStatus> {
  await saveConnection(deps.db, {
    userId,
    ...(await sealedSession(deps.env.PLATFORM_TOKEN_KEY, userId, session, deps.now)),
    displayName: session.displayName,
    paymentMethodId: session.paymentMethodId,
    state: 'ok',
    connectedAt: deps.now,
    checkedAt: deps.now,
  })
  await wakeRequestsOf(deps, userId)
  return connectionStatus(deps, userId)
}

/** Password sign-in for the JSON API: a problem is an AppError in the words the page uses too. */
export async function connectPlatform(
  deps: Deps,
  userId: string,
  input: { email: string; password: string; acknowledgedRisk: boolean; via?: SignInVia },
): Promise<ConnectionStatus> {
  if (!input.acknowledgedRisk) {
    throw new AppError(
      'risk_not_acknowledged',
      `Please confirm that you understand the risk first. ${RISK_NOTICE} By connecting, you accept that risk.`,
    )
  }
  const key = await newReceiverKey()
  const seal = { ...key, context: `platform-password ${userId} ${crypto.randomUUID()}` }
  const got = await signerOf(deps, userId, input.via ?? 'cloud').password(input.email, input.password, seal)
  if (got.kind === 'ok') return saveSignedIn(deps, userId, got.value)
  throw signInError(got.problem)
}

/** A sign-in problem as the JSON API's error, in the page's words. */
export function signInError(problem: SignInProblem | { kind: 'invalid_number' }): AppError {
  const words = signInWords(problem)
  const message = `${words.said} ${words.next}`
  // The diner's own limit (ours on codes, or the platform's on attempts) is theirs to wait out: 429, never a 5xx.
  if (problem.kind === 'rate_limited') return new AppError('sign_in_limit', message, retryAfterHeader(problem.retryAfterMs))
  if (problem.kind === 'unavailable' || problem.kind === 'device_silent') return new AppError('platform_unavailable', message)
  if (problem.kind === 'cloud_refused') return new AppError('platform_refuses_cloud', message)
  if (words.code === 'platform_login_failed') return new AppError('platform_login_failed', message)
  return new AppError('platform_sign_in_refused', message)
}

/** `Retry-After` in whole seconds, when the wait is known. */
export function retryAfterHeader(retryAfterMs: number | null): Record<string, string> {
  return retryAfterMs === null ? {} : { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) }
}

/** Forgets the platform token and ends every open request of the user. */
export async function disconnectPlatform(deps: Deps, userId: string): Promise<void> {
  await deleteConnection(deps.db, userId)
  await revokeRequestsOf(deps, { userId }, 'The reservation platform was disconnected.')
}

/**
 * The platform rejected the stored token: the user must reconnect. Returns the connection's
 * connectedAt the first time (whoever notices first), null after, so the user is told once.
 */
export async function markReauthRequired(deps: Deps, userId: string): Promise<number | null> {
  return flagReauthRequired(deps.db, userId, deps.now)
}

/**
 * Asks the platform whether the stored token still works, when the last check is older than
 * ACCOUNT_CHECK_TTL_MS; keeps the payment method current. Transient failures change nothing.
 */
export async function refreshConnection(deps: Deps, userId: string): Promise<void> {
  const row = await findConnection(deps.db, userId)
  if (row?.state !== 'ok') return
  // A session that ended by itself needs no call to say so.
  if (sessionLapsed(row, deps.now)) {
    await markReauthRequired(deps, userId)
    return
  }
  if (deps.now - row.checkedAt < ACCOUNT_CHECK_TTL_MS) return
  const session = await userSession(deps, userId)
  if (!session) return
  const account = await session.read((credentials) => deps.platform.checkAccount(credentials))
  if (account.kind === 'reauth') await markReauthRequired(deps, userId)
  if (account.kind === 'ok') {
    await updateConnectionState(deps.db, userId, {
      checkedAt: deps.now,
      paymentMethodId: account.value.paymentMethodId,
      displayName: account.value.displayName,
    })
  }
}
