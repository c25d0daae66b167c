// Web Push settings for a diner: turn it on for a browser, list and remove the
// browsers, send a test. The channel itself (keys, encryption, delivery) is notifications/push.
// Every function takes the user's id from the session; a subscription id of another user changes
// nothing.

import { z } from 'zod'
import { equalStrings } from '../auth/bytes'
import { isLocalDevelopment } from '../core/deployment'
import {
  countPushSubscriptions,
  deletePushSubscription,
  findPushSubscriptionByEndpoint,
  listPushSubscriptions,
  renewPushSubscription,
  storePushSubscription,
} from '../db/push-subscriptions'
import { reserve } from '../db/rate-limits'
import { AppError } from '../errors'
import { newId, sha256Hex } from '../lib/random'
import { open, seal } from '../lib/secret-box'
import { type PushUseDeps, pushAlert } from '../notifications/push/alert'
import type { PushReport } from '../notifications/push/deliver'
import { deviceLabel } from '../notifications/push/label'
import { browserSubscriptionSchema, type StoredSubscription } from '../notifications/push/subscription'
import { vapidOf } from '../notifications/push/vapid'

/** Browsers per user: a household's phones and computers, not a way to fan out requests. */
const MAX_SUBSCRIPTIONS = 10
/** Test pushes per user an hour, as for test emails. */
const PUSH_TESTS = { limit: 10, windowMs: 60 * 60 * 1000 }

interface PushSubscriptionView {
  id: string
  label: string
  createdAt: number
  lastSuccessAt: number | null
  lastFailureAt: number | null
  lastFailure: string | null
}

export interface PushSettings {
  /** The VAPID public key browsers subscribe with; null when this deployment has no VAPID key. */
  publicKey: string | null
  subscriptions: PushSubscriptionView[]
}

export async function pushSettingsOf(deps: PushUseDeps, userId: string): Promise<PushSettings> {
  const rows = await listPushSubscriptions(deps.db, userId)
  return {
    publicKey: vapidOf(deps.env, deps.baseUrl)?.publicKey ?? null,
    subscriptions: rows.map(({ id, label, createdAt, lastSuccessAt, lastFailureAt, lastFailure }) => ({
      id,
      label,
      createdAt,
      lastSuccessAt,
      lastFailureAt,
      lastFailure,
    })),
  }
}

const SUBSCRIPTION_NOT_USABLE =
  'This push subscription cannot be used. Turn notifications for this site off and on again in the browser, then turn push on here.'

/** Stores the subscription a browser made; bad input is refused with the reason and stores nothing. */
export async function turnOnPush(
  deps: PushUseDeps,
  userId: string,
  input: unknown,
  userAgent: string | undefined,
): Promise<{ id: string }> {
  if (!vapidOf(deps.env, deps.baseUrl)) throw new AppError('invalid_request', 'Push is not set up on this deployment.')
  const parsed = browserSubscriptionSchema({ allowLoopback: isLocalDevelopment(deps.env) }).safeParse(input)
  if (!parsed.success) throw new AppError('invalid_request', parsed.error.issues[0]?.message ?? 'That is not a push subscription.')
  const { endpoint, keys } = parsed.data
  const stored: StoredSubscription = { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } }
  const sealed = await seal(deps.env.PLATFORM_TOKEN_KEY, JSON.stringify(stored), userId)
  const id = newId('push')
  const row = {
    id,
    userId,
    endpointHash: await sha256Hex(endpoint),
    sealed: sealed.ciphertext,
    iv: sealed.iv,
    label: deviceLabel(userAgent),
    createdAt: deps.now,
  }
  const outcome = await storePushSubscription(deps.db, row, MAX_SUBSCRIPTIONS)
  if (outcome === 'over_cap')
    throw new AppError('invalid_request', `Push is on in ${MAX_SUBSCRIPTIONS} browsers already. Remove one first.`)
  // Says nothing of whose it is: only that this subscription cannot be used, and what helps.
  if (outcome === 'taken') throw new AppError('invalid_request', SUBSCRIPTION_NOT_USABLE)
  return { id }
}

const NO_SUCH_SUBSCRIPTION = 'No browser has push on with that subscription.'

/**
 * A browser renewed its push subscription (`pushsubscriptionchange`, from the service worker,
 * which has no session and no form): the stored one moves to the new endpoint and keys. The
 * earlier subscription's auth secret is the credential: only that browser and this service know
 * it. Anything else (unknown endpoint, wrong secret) is the same "not found" and changes nothing.
 */
export async function renewPush(deps: PushUseDeps, input: unknown): Promise<{ id: string }> {
  const policy = { allowLoopback: isLocalDevelopment(deps.env) }
  const parsed = z.object({ old: browserSubscriptionSchema(policy), new: browserSubscriptionSchema(policy) }).safeParse(input)
  if (!parsed.success) throw new AppError('invalid_request', parsed.error.issues[0]?.message ?? 'That is not a push subscription renewal.')
  const oldHash = await sha256Hex(parsed.data.old.endpoint)
  const row = await findPushSubscriptionByEndpoint(deps.db, oldHash)
  const stored = row ? await storedOf(deps, row) : null
  if (!row || !stored || !equalStrings(stored.keys.auth, parsed.data.old.keys.auth)) throw new AppError('not_found', NO_SUCH_SUBSCRIPTION)
  const { endpoint, keys } = parsed.data.new
  const renewed: StoredSubscription = { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } }
  const sealed = await seal(deps.env.PLATFORM_TOKEN_KEY, JSON.stringify(renewed), row.userId)
  const moved = await renewPushSubscription(deps.db, row.id, oldHash, {
    endpointHash: await sha256Hex(endpoint),
    sealed: sealed.ciphertext,
    iv: sealed.iv,
  })
  if (!moved) throw new AppError('not_found', NO_SUCH_SUBSCRIPTION)
  return { id: row.id }
}

async function storedOf(deps: PushUseDeps, row: { sealed: string; iv: string; userId: string }): Promise<StoredSubscription | null> {
  try {
    const parsed = browserSubscriptionSchema({ allowLoopback: true }).safeParse(
      JSON.parse(await open(deps.env.PLATFORM_TOKEN_KEY, { ciphertext: row.sealed, iv: row.iv }, row.userId)),
    )
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

export async function turnOffPush(deps: PushUseDeps, userId: string, subscriptionId: string): Promise<void> {
  if (!(await deletePushSubscription(deps.db, userId, subscriptionId))) {
    throw new AppError('not_found', 'That browser no longer has push on.')
  }
}

export type TestPushResult = { ok: true; report: PushReport } | { ok: false; reason: 'too_many' | 'none' | 'not_set_up' }

export async function sendTestPush(deps: PushUseDeps, userId: string): Promise<TestPushResult> {
  if (!vapidOf(deps.env, deps.baseUrl)) return { ok: false, reason: 'not_set_up' }
  if ((await countPushSubscriptions(deps.db, userId)) === 0) return { ok: false, reason: 'none' }
  const allowed = await reserve(deps.db, { key: `push-test:${userId}`, ...PUSH_TESTS }, deps.now)
  if (!allowed.ok) return { ok: false, reason: 'too_many' }
  const report = await pushAlert(deps, userId, {
    kind: 'test',
    title: 'Tablewatch test',
    body: 'This is a test from Tablewatch. Alerts about your requests will arrive like this.',
    link: `${deps.baseUrl}/notifications`,
    requestId: null,
  })
  return { ok: true, report }
}
