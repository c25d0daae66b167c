// One push message to one browser: encrypted (RFC 8291, aes128gcm, padded to 4096 octets) and
// signed (RFC 8292, VAPID) by @block65/webcrypto-web-push with Web Crypto, posted to the
// subscription's endpoint (RFC 8030, section 5). (@pushforge/builder 2.0.5 was tried first: it encrypts
// with the older "aesgcm" draft scheme, which test/push/web-push.test.ts's RFC 8291 decryption
// refused; docs/decisions/alerts.md.)
// The push service's answer decides what happens (RFC 8030, sections 5 and 8.3):
//   201/202          delivered to the push service (it forwards to the device within the TTL)
//   404/410          the subscription has expired or been withdrawn: the caller drops it
//   429, 5xx, none   tried again, up to three times (1 s, then 4 s, or the Retry-After up to 10 s)
//   anything else    a lasting failure (a bad key, a too large message): reported, not retried
// The endpoint and the keys are secrets: they never appear in a result, an error or a log.
import { buildPushPayload } from '@block65/webcrypto-web-push'
import type { PushMessage } from './message'
import type { StoredSubscription } from './subscription'
import type { Vapid } from './vapid'

export type PushOutcome =
  | { kind: 'delivered' }
  | { kind: 'gone'; status: number }
  /** `failure` is words for the settings page, without the endpoint. */
  | { kind: 'failed'; failure: string }

export interface SendOptions {
  ttl: number
  urgency: 'high' | 'normal'
  /** Defaults to the global fetch; tests pass a local push service. */
  fetcher?: ((request: Request) => Promise<Response>) | undefined
  /** Waits between attempts; tests pass one that does not wait. */
  sleep?: ((ms: number) => Promise<void>) | undefined
}

const PUSH_TIMEOUT_MS = 10_000
const RETRY_DELAYS_MS = [1_000, 4_000]
const MAX_RETRY_AFTER_MS = 10_000

type Attempt = { done: PushOutcome } | { retry: string; afterMs: number | null }

function retryAfterMs(response: Response): number | null {
  const seconds = Number(response.headers.get('retry-after'))
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, MAX_RETRY_AFTER_MS) : null
}

async function attempt(vapid: Vapid, subscription: StoredSubscription, message: PushMessage, options: SendOptions): Promise<Attempt> {
  let built: Awaited<ReturnType<typeof buildPushPayload>>
  try {
    built = await buildPushPayload(
      { data: { ...message }, options: { ttl: options.ttl, urgency: options.urgency } },
      { ...subscription, expirationTime: null },
      { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
    )
  } catch {
    // The library's messages may quote the subscription: never passed on.
    return { done: { kind: 'failed', failure: 'the subscription’s keys could not be used; turn push on again in this browser' } }
  }
  const fetcher = options.fetcher ?? ((request: Request) => fetch(request))
  const signal = AbortSignal.timeout(PUSH_TIMEOUT_MS)
  let response: Response
  try {
    response = await fetcher(
      new Request(subscription.endpoint, { method: 'POST', headers: built.headers, body: built.body, signal, redirect: 'manual' }),
    )
  } catch {
    const failure = signal.aborted ? 'the push service did not answer in 10 seconds' : 'the push service could not be reached'
    return { retry: failure, afterMs: null }
  }
  await response.body?.cancel()
  if (response.status === 201 || response.status === 202 || response.status === 200) return { done: { kind: 'delivered' } }
  if (response.status === 404 || response.status === 410) return { done: { kind: 'gone', status: response.status } }
  const failure = `the push service answered ${response.status}`
  if (response.status === 429 || response.status >= 500) return { retry: failure, afterMs: retryAfterMs(response) }
  return { done: { kind: 'failed', failure } }
}

export async function sendPush(
  vapid: Vapid,
  subscription: StoredSubscription,
  message: PushMessage,
  options: SendOptions,
): Promise<PushOutcome> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  let last = 'the push service could not be reached'
  for (let i = 0; i <= RETRY_DELAYS_MS.length; i++) {
    const result = await attempt(vapid, subscription, message, options)
    if ('done' in result) return result.done
    last = result.retry
    const delay = RETRY_DELAYS_MS[i]
    if (delay !== undefined) await sleep(result.afterMs ?? delay)
  }
  return { kind: 'failed', failure: `${last} (tried 3 times)` }
}
