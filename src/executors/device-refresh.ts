// The session's refresh made on the diner's side: the platform may refuse a refresh from the
// service's network while it still serves the session's reads and booking from there
// (docs/platform.md, "Where calls may come from"). Then the user's paired device, when connected
// and able to make sign-ins, makes the refresh call from their network (src/platform/sign-in-relay.ts,
// step `refresh`) and sends the new session back sealed to a one-time key of this refresh, so
// neither the device's object nor its messages ever hold a readable token.
import { newReceiverKey, openSealedToKey } from '../lib/sealed-to-key'
import type { Outcome, PlatformSession, RefreshCredentials } from '../platform/api'
import { RelayedRefresh } from '../platform/sign-in-relay'
import { type Deps, deviceObject } from '../runtime/deps'

/**
 * How long the device may take: its one refresh call and the way back. With the cloud's own try
 * before it, this stays inside one renewal lease (platform-session.ts), so no second renewer can
 * spend the same refresh token meanwhile.
 */
const DEVICE_REFRESH_TIMEOUT_MS = 12_000

/** The device's refresh of the session; null when no connected device can make it (nothing was sent). */
export async function refreshThroughDevice(
  deps: Deps,
  userId: string,
  credentials: RefreshCredentials,
): Promise<Outcome<PlatformSession> | null> {
  const device = deviceObject(deps.env, userId)
  if (!(await device.status()).canSignIn) return null
  const id = `refresh:${crypto.randomUUID()}`
  const key = await newReceiverKey()
  const context = `${userId}:${id}`
  const step = {
    step: 'refresh' as const,
    refreshToken: credentials.refreshToken,
    cdnCookies: credentials.cdnCookies,
    sealTo: { key: key.publicKey, context },
  }
  const answer = await device.relaySignIn(id, step, DEVICE_REFRESH_TIMEOUT_MS)
  switch (answer?.kind) {
    case 'refreshed':
      try {
        const parsed = RelayedRefresh.safeParse(JSON.parse(await openSealedToKey(key.privateKey, answer.session, context)))
        return parsed.success
          ? { kind: 'ok', value: parsed.data }
          : { kind: 'unavailable', detail: 'the device sent an unreadable session' }
      } catch {
        return { kind: 'unavailable', detail: 'the device sent a session sealed for another refresh' }
      }
    case 'rejected':
      return { kind: 'reauth' }
    case 'blocked':
      return { kind: 'unavailable', detail: 'the platform refused the paired device’s refresh too' }
    case 'rate_limited':
      return { kind: 'rate_limited', retryAfterMs: answer.retryAfterMs }
    case undefined:
      return { kind: 'unavailable', detail: 'the paired device did not answer the refresh' }
    default:
      return { kind: 'unavailable', detail: `the paired device answered the refresh with ${answer?.kind}` }
  }
}
